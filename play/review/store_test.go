package review

import (
	"reflect"
	"testing"

	"github.com/bashni/bashni/storage"
)

// The whole storage contract holds what reviews need, so both backends
// (which pass storage/storagetest) serve them.
var _ Store = storage.Store(nil)

// A feature's store port stays small (issue 39: at most 6 methods).
func TestStorePortIsSmall(t *testing.T) {
	if n := reflect.TypeFor[Store]().NumMethod(); n > 6 {
		t.Errorf("review.Store has %d methods; want at most 6", n)
	}
}
