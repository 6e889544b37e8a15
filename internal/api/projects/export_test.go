package projects

// WireItems exposes the wire conversion of list items to the tests.
var WireItems = wireItems
