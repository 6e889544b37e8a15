package models

import (
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

// actor is the caller of c as the models domain names it.
func actor(c *rpc.Call) modeldom.Actor {
	return modeldom.Actor{Company: c.Company(), User: c.User()}
}
