package events

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// plotPackThreshold is the plot_str length from which plots are stored
// compressed (plotly JSON compresses about tenfold).
const plotPackThreshold = 16 << 10

var (
	plotEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	plotDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(4*MaxPlotLen))
)

// packPlot returns plot_str as stored: as text when short, else compressed.
func packPlot(s string) (*string, []byte) {
	if len(s) < plotPackThreshold {
		return &s, nil
	}
	return nil, plotEncoder.EncodeAll([]byte(s), nil)
}

// UnpackPlot returns the plot_str of a stored plot ("" when it had none).
func UnpackPlot(plot *string, z []byte) (string, error) {
	if plot != nil {
		return *plot, nil
	}
	if len(z) == 0 {
		return "", nil
	}
	b, err := plotDecoder.DecodeAll(z, nil)
	if err != nil {
		return "", fmt.Errorf("decompress plot: %w", err)
	}
	return string(b), nil
}
