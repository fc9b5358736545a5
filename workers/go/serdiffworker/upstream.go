// serdiff repro --upstream for Go workers: the program a worker writes for a bug report
// (docs/workers.md, "Upstream reproducers").
package serdiffworker

import (
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"strconv"
	"strings"
)

// ---- serdiff repro --upstream (docs/workers.md, "Upstream reproducers") ------------------------

// UpstreamOp is the op serdiff sends for `serdiff repro --upstream`.
const UpstreamOp = "serdiff.upstream"

// Upstream is what a worker gives UpstreamProgram: the library's name and version; the
// program's imports beyond encoding/json, fmt, os and reflect (each as an import line, e.g.
// `"github.com/gocql/gocql"`), each of which must be used by Prelude or Call; Prelude, the
// program's declarations (often a worker's own code, from SourceBetween); and Call, the source
// of `func call(raw []byte) (map[string]any, error)`, which runs the library on the op's input
// (its JSON text) and returns the answer's fields ({"hex": ...}) or the library's error; an
// error with a method NoForm() string says the input has no form the library takes (the program
// then exits 2, not 1).
type Upstream struct {
	Library string
	Imports []string
	Prelude string
	Call    string
}

const upstreamJudge = `
func main() {
	got, err := protect(call)
	if nf, ok := err.(interface{ NoForm() string }); ok { // the conversion found no Go form
		fmt.Printf("the input has no form %s takes, so nothing was compared: %s\n", library, nf.NoForm())
		os.Exit(2)
	}
	var expect struct {
		Outcome string                     ` + "`json:\"outcome\"`" + `
		Message string                     ` + "`json:\"message\"`" + `
		Answer  map[string]json.RawMessage ` + "`json:\"answer\"`" + `
	}
	if e := json.Unmarshal([]byte(expectJSON), &expect); e != nil {
		panic(e)
	}
	if err != nil {
		fmt.Printf("%s rejects it: %v\n", library, err)
	} else {
		text, _ := json.Marshal(got)
		fmt.Printf("%s accepts it: %s\n", library, text)
	}
	var agrees bool
	if expect.Outcome == "rejected" {
		fmt.Printf("the spec (%s): rejected, %s\n", spec, expect.Message)
		agrees = err != nil
	} else {
		text, _ := json.Marshal(expect.Answer)
		fmt.Printf("the spec (%s): accepted: %s\n", spec, text)
		agrees = err == nil
		for k, want := range expect.Answer {
			have, _ := json.Marshal(got[k])
			var a, b any
			_ = json.Unmarshal(have, &a)
			_ = json.Unmarshal(want, &b)
			agrees = agrees && reflect.DeepEqual(a, b)
		}
	}
	if agrees {
		fmt.Println("agrees with the spec")
		os.Exit(0)
	}
	fmt.Println("DIFFERS from the spec")
	os.Exit(1)
}

// protect runs f on the input; a panic is how the library failed, reported as its error.
func protect(f func([]byte) (map[string]any, error)) (got map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			got, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return f([]byte(inputJSON))
}
`

// SourceBetween returns the lines of the file `path` between "// upstream: begin NAME" and
// "// upstream: end NAME" (the markers left out): a worker's own conversion code, copied into
// the reproducer it writes so that the program and the worker read the input alike.
func SourceBetween(path, name string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	text := string(b)
	begin, end := "// upstream: begin "+name+"\n", "// upstream: end "+name+"\n"
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s has no section %s", path, name)
	}
	return text[i+len(begin) : j], nil
}

// UpstreamProgram answers a "serdiff.upstream" request: a self-contained Go program (run with
// `go run` in GOPATH mode over Debian's Go sources) that calls the library directly on the
// request's input, prints what it does and what serdiff's reference (the spec) gives, and exits
// 1 while they differ, 0 once they agree (2: the input has no form the library takes; a library
// that is not installed fails go run itself, exit 1 with the compiler's message).
func UpstreamProgram(req *Request, u Upstream) (Result, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(req.RawInput, &fields); err != nil {
		return Result{}, err
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(fields[k], &s)
		return s
	}
	var expect struct {
		Outcome string `json:"outcome"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(fields["expect"], &expect)
	wants := "accepted"
	if expect.Outcome == "rejected" {
		wants = "rejected, " + expect.Message
	}
	oneLine := func(s string) string { return strings.ReplaceAll(s, "\n", " ") }
	var b strings.Builder
	fmt.Fprintf(&b, "// %s on %s: a reproducer written by serdiff (serdiff repro --upstream).\n",
		u.Library, str("target"))
	b.WriteString("//\n// It calls the library directly, without serdiff, on this input:\n")
	fmt.Fprintf(&b, "//   %s\n", oneLine(str("shown")))
	fmt.Fprintf(&b, "// What the spec requires (%s): %s\n", str("spec"), oneLine(wants))
	b.WriteString("// Exit status: 1 while the library answers otherwise, 0 once it agrees.\n")
	b.WriteString("// Run it with GO111MODULE=off and GOPATH naming the library's sources.\n")
	b.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\t\"reflect\"\n")
	for _, imp := range u.Imports {
		fmt.Fprintf(&b, "\t%s\n", imp)
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "const library = %s\n", strconv.Quote(u.Library))
	fmt.Fprintf(&b, "const spec = %s\n", strconv.Quote(str("spec")))
	fmt.Fprintf(&b, "const inputJSON = %s\n", strconv.Quote(string(fields["input"])))
	fmt.Fprintf(&b, "const expectJSON = %s\n\n", strconv.Quote(string(fields["expect"])))
	b.WriteString(strings.Trim(u.Prelude, "\n") + "\n\n")
	b.WriteString(strings.Trim(u.Call, "\n") + "\n")
	b.WriteString(upstreamJudge)
	program := b.String()
	if formatted, err := format.Source([]byte(program)); err == nil { // as gofmt writes it
		program = string(formatted)
	}
	return Value(map[string]any{
		"ext":     "go",
		"run":     []string{"env", "GO111MODULE=off", "GOFLAGS=", "GOPATH=/usr/share/gocode", "go", "run", "{file}"},
		"program": program,
	}), nil
}
