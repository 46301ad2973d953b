// Package lists reads the X-macro lists of core/include/snowfleet/lists.h, the one place the
// error kinds, a generator's arguments and the Layout, Stats and Status fields are written,
// and renders the Go declarations expanded from them (lists_gen.go).
package lists

import (
	"fmt"
	"strings"
)

// Entry is one X(...) of a list: its arguments, strings unquoted and concatenated.
type Entry []string

// Lists holds the lists the Go package expands.
type Lists struct {
	ErrorKinds    []Entry // enumerator, CODE, ClassName, category, summary
	GeneratorArgs []Entry // name, camelName, KIND, doc
	LayoutFields  []Entry // name, camelName, KIND, doc
	StatsFields   []Entry // name, camelName, KIND, init, doc
	StatusFields  []Entry // name, camelName, KIND, init, doc
}

// Parse reads the lists from the text of lists.h.
func Parse(header string) (*Lists, error) {
	var l Lists
	for _, want := range []struct {
		macro string
		arity int
		out   *[]Entry
	}{
		{"SNOWFLEET_ERROR_KINDS", 5, &l.ErrorKinds},
		{"SNOWFLEET_GENERATOR_ARGS", 4, &l.GeneratorArgs},
		{"SNOWFLEET_LAYOUT_FIELDS", 4, &l.LayoutFields},
		{"SNOWFLEET_STATS_FIELDS", 5, &l.StatsFields},
		{"SNOWFLEET_STATUS_FIELDS", 5, &l.StatusFields},
	} {
		body, err := macroBody(header, want.macro)
		if err != nil {
			return nil, err
		}
		entries, err := entries(body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", want.macro, err)
		}
		for _, e := range entries {
			if len(e) != want.arity {
				return nil, fmt.Errorf("%s: entry %q has %d arguments, want %d", want.macro, e, len(e), want.arity)
			}
		}
		*want.out = entries
	}
	return &l, nil
}

// macroBody returns the continued lines of `#define NAME(X)`, backslashes removed.
func macroBody(header, name string) (string, error) {
	start := strings.Index(header, "#define "+name+"(X)")
	if start < 0 {
		return "", fmt.Errorf("lists.h has no #define %s(X)", name)
	}
	var body strings.Builder
	for _, line := range strings.Split(header[start:], "\n")[0:] {
		trimmed := strings.TrimRight(line, " \t")
		cont := strings.HasSuffix(trimmed, "\\")
		body.WriteString(strings.TrimSuffix(trimmed, "\\"))
		body.WriteByte(' ')
		if !cont {
			break
		}
	}
	text := body.String()
	return text[strings.Index(text, "(X)")+3:], nil
}

// entries splits `X(a, "b" "c", d) X(...)` into its argument lists.
func entries(body string) ([]Entry, error) {
	var out []Entry
	i := 0
	for {
		for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
			i++
		}
		if i == len(body) {
			return out, nil
		}
		if !strings.HasPrefix(body[i:], "X(") {
			return nil, fmt.Errorf("unexpected text at %q", body[i:min(len(body), i+20)])
		}
		i += 2
		var e Entry
		var arg strings.Builder
		for {
			if i >= len(body) {
				return nil, fmt.Errorf("unterminated entry")
			}
			c := body[i]
			switch {
			case c == '"':
				j := i + 1
				for ; j < len(body) && body[j] != '"'; j++ {
					if body[j] == '\\' {
						j++
						arg.WriteByte(body[j])
						continue
					}
					arg.WriteByte(body[j])
				}
				i = j + 1
				continue
			case c == ',' || c == ')':
				e = append(e, strings.TrimSpace(arg.String()))
				arg.Reset()
				i++
				if c == ')' {
					out = append(out, e)
					break
				}
				continue
			case c == ' ' || c == '\t':
				i++
				continue
			default:
				arg.WriteByte(c)
				i++
				continue
			}
			break
		}
	}
}
