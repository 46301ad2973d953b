package snowfleet

/*
#include "snowfleet.h"
*/
import "C"

// Format is an id's text form. Each sorts as the ids do.
type Format int32

// The text forms (snowfleet_id_format's values; the text vectors check each).
const (
	DecimalFormat Format = 0 // decimal digits
	Base32Format  Format = 1 // 13 characters, Crockford's alphabet
	Base62Format  Format = 2 // 11 characters
	// AnyFormat parses whichever of the three a text is in (all digits: decimal; else 13
	// characters base32, 11 base62). FormatID refuses it.
	AnyFormat Format = 3
)

// FormatID writes id in that text form.
func FormatID(id int64, f Format) (string, error) {
	var buf [C.SNOWFLEET_ID_TEXT_MAX]C.char
	var e C.snowfleet_error
	if C.snowfleet_format_id(C.int64_t(id), C.int32_t(f), &buf[0], C.size_t(len(buf)), &e) != C.SNOWFLEET_OK {
		return "", errorOf(&e)
	}
	return C.GoString(&buf[0]), nil
}

// ParseID reads an id in that text form, strictly: no sign, space or prefix.
func ParseID(text string, f Format) (int64, error) {
	var id C.int64_t
	var e C.snowfleet_error
	p, n := textArg(text)
	if C.snowfleet_parse_id(p, n, C.int32_t(f), &id, &e) != C.SNOWFLEET_OK {
		return 0, errorOf(&e)
	}
	return int64(id), nil
}

// FormatTime writes Unix ms as ISO 8601 UTC text: "2025-01-24T19:35:58.021Z".
func FormatTime(unixMs int64) (string, error) {
	var buf [C.SNOWFLEET_TIME_TEXT_MAX]C.char
	var e C.snowfleet_error
	if C.snowfleet_format_time(C.int64_t(unixMs), &buf[0], C.size_t(len(buf)), &e) != C.SNOWFLEET_OK {
		return "", errorOf(&e)
	}
	return C.GoString(&buf[0]), nil
}

// ParseTime reads RFC 3339 text with an offset, or a date alone, as Unix ms.
func ParseTime(text string) (int64, error) {
	var ms C.int64_t
	var e C.snowfleet_error
	p, n := textArg(text)
	if C.snowfleet_parse_time(p, n, &ms, &e) != C.SNOWFLEET_OK {
		return 0, errorOf(&e)
	}
	return int64(ms), nil
}
