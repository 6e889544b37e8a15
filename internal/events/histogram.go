package events

// RollupLevels are the bucket widths (powers of two) of the stored scalar
// rollups: 16, 64, ... 16384 iterations.
var RollupLevels = []int{4, 6, 8, 10, 12, 14}
