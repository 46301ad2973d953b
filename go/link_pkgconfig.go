//go:build snowfleet_pkgconfig

package snowfleet

// The C interface as installed (cmake --install, docs/c.md): pkg-config finds it. Outside the
// loader's default paths, set PKG_CONFIG_PATH, and LD_LIBRARY_PATH (or an rpath through
// CGO_LDFLAGS) for the program to find libsnowfleet.so.0 at run time.

/*
#cgo pkg-config: snowfleet
*/
import "C"
