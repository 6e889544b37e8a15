package models

// StoredItems exposes the conversion of list items to the tests.
var StoredItems = storedItems
