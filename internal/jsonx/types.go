package jsonx

import "reflect"

var (
	floatType = reflect.TypeOf(float64(0))
	timeType  = reflect.TypeOf(Time{})
)
