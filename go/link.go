//go:build !snowfleet_pkgconfig

package snowfleet

// The C interface as go/build-native.sh installs it from this checkout: its header and
// libsnowfleet.so.0 in go/native, found at run time through the run path set here.
// Build with -tags snowfleet_pkgconfig to use an installed snowfleet (pkg-config) instead.

/*
#cgo CFLAGS: -I${SRCDIR}/native/include
#cgo LDFLAGS: -L${SRCDIR}/native/lib -Wl,-rpath,${SRCDIR}/native/lib -lsnowfleet
*/
import "C"
