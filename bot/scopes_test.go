package bot

import "testing"

// Every callback kind with a handler says where it may be tapped: a new
// kind without a scope would be refused everywhere.
func TestEveryTapRouteHasAScope(t *testing.T) {
	for kind := range tapRoutes {
		if tapScopes[kind] == 0 {
			t.Errorf("callback kind %q has a handler but no scope in tapScopes", kind)
		}
	}
	for kind := range tapScopes {
		if _, ok := tapRoutes[kind]; !ok {
			t.Errorf("callback kind %q has a scope but no handler", kind)
		}
	}
}
