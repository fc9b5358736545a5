// The conformance worker for workers/go/serdiffworker (tests/worker_conformance/): the ops of
// conformance_worker.py (its docstring lists them), in the same order, with the same behaviour.
// Run by workers/go/run --name conformance tests/worker_conformance/conformance_go.
//
// Environment: SERDIFF_CONFORMANCE_DECLINED, a reason: Serve declined with it;
// SERDIFF_CONFORMANCE_FRAME_LIMIT, the frame limit; SERDIFF_CONFORMANCE_REHEARSE: rehearse on;
// SERDIFF_CONFORMANCE_NAMES_LIBRARY, a library name and version: Options.Library.
// The library itself comes from SERDIFF_GO_LIBRARY (workers/go/run), which
// broken_library_test.py points at a changed copy.
package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"strconv"

	sw "serdiffworker"
)

const name = "conformance"
const peak = "conformance: the library measures the peak in its own way"

// TypeError stands for the other libraries' TypeError: an error the op does not classify.
type TypeError struct{ msg string }

func (e *TypeError) Error() string { return e.msg }

func str(req *sw.Request, key string) string {
	s, _ := req.Input[key].(string)
	return s
}

func rejected(req *sw.Request) error {
	if o, ok := req.Input["offset"]; ok {
		n, err := strconv.Atoi(fmt.Sprint(o))
		if err == nil {
			return sw.RejectAt(str(req, "message"), n)
		}
	}
	return sw.Reject(str(req, "message"))
}

func hexOf(req *sw.Request) (sw.Result, error) {
	b, err := hex.DecodeString(str(req, "hex"))
	if err != nil {
		return sw.Result{}, err
	}
	return sw.Hex(b), nil
}

func empty(any) (any, error) { return sw.Hex(nil), nil }

func identity(arg any) (any, error) { return arg, nil }

type staged struct {
	data  []byte
	steps []string
}

var runs = 0

func main() {
	lone := string([]byte{0xed, 0xa0, 0xbd}) // U+D83D's bytes, which no UTF-8 string holds
	ops := []sw.NamedOp{
		{"echo.hex", sw.Func(hexOf)},
		{"echo.value", sw.Func(func(req *sw.Request) (sw.Result, error) {
			return sw.Value(req.Input["value"]), nil
		})},
		{"reject", sw.Func(func(req *sw.Request) (sw.Result, error) {
			return sw.Result{}, rejected(req)
		})},
		{"decline", sw.Func(func(req *sw.Request) (sw.Result, error) {
			return sw.Result{}, sw.Decline(str(req, "message"))
		})},
		{"throw", sw.Func(func(req *sw.Request) (sw.Result, error) {
			return sw.Result{}, &TypeError{str(req, "message")}
		})},
		{"prepare.throw", sw.Op{Run: empty, Prepare: func(req *sw.Request) (any, error) {
			return nil, &TypeError{str(req, "message")}
		}}},
		{"prepare.reject", sw.Op{Run: empty, Prepare: func(req *sw.Request) (any, error) {
			return nil, rejected(req)
		}}},
		{"prepare.decline", sw.Op{Run: empty, Prepare: func(req *sw.Request) (any, error) {
			return nil, sw.Decline(str(req, "message"))
		}}},
		{"finish.throw", sw.Op{Run: identity, Finish: func(r any) (sw.Result, error) {
			return sw.Result{}, &TypeError{str(r.(*sw.Request), "message")}
		}}},
		{"finish.reject", sw.Op{Run: identity, Finish: func(r any) (sw.Result, error) {
			return sw.Result{}, rejected(r.(*sw.Request))
		}}},
		{"staged", sw.Op{
			Prepare: func(req *sw.Request) (any, error) {
				b, err := hex.DecodeString(str(req, "hex"))
				return staged{b, []string{"prepare"}}, err
			},
			Run: func(arg any) (any, error) {
				s := arg.(staged)
				r := make([]byte, len(s.data))
				for i, c := range s.data {
					r[len(r)-1-i] = c
				}
				return staged{r, append(append([]string{}, s.steps...), "run")}, nil
			},
			Finish: func(r any) (sw.Result, error) {
				s := r.(staged)
				return sw.Value(map[string]any{"reversed": hex.EncodeToString(s.data),
					"steps": append(append([]string{}, s.steps...), "finish")}), nil
			},
		}},
		{"value.nan", sw.Func(func(*sw.Request) (sw.Result, error) {
			zero := 0.0
			return sw.Value(map[string]any{"x": zero / zero}), nil
		})},
		{"bad.result", sw.Func(func(*sw.Request) (sw.Result, error) { return sw.Result{}, nil })},
		{"print", sw.Func(func(*sw.Request) (sw.Result, error) {
			fmt.Println("conformance: printed to stdout")
			return sw.Hex(nil), nil
		})},
		{"exit", sw.Func(func(*sw.Request) (sw.Result, error) {
			os.Exit(7)
			return sw.Result{}, nil
		})},
		{"big", sw.Func(func(req *sw.Request) (sw.Result, error) {
			n, err := strconv.Atoi(fmt.Sprint(req.Input["size"]))
			return sw.Hex(make([]byte, n)), err
		})},
		{"surrogate", sw.Func(func(req *sw.Request) (sw.Result, error) {
			switch str(req, "where") {
			case "message":
				return sw.Result{}, sw.Reject("option [" + lone + "]")
			case "key":
				return sw.Value(map[string]any{lone: 1}), nil
			}
			return sw.Value(map[string]any{"s": "a" + lone}), nil
		})},
		{"count", sw.Func(func(*sw.Request) (sw.Result, error) {
			runs++
			return sw.Value(map[string]any{"runs": runs}), nil
		})},
	}
	o := sw.Options{Name: name, Ops: ops, Peak: peak,
		Declined: os.Getenv("SERDIFF_CONFORMANCE_DECLINED"),
		Rehearse: os.Getenv("SERDIFF_CONFORMANCE_REHEARSE") != "",
		Library:  os.Getenv("SERDIFF_CONFORMANCE_NAMES_LIBRARY")}
	if l := os.Getenv("SERDIFF_CONFORMANCE_FRAME_LIMIT"); l != "" {
		o.FrameLimit, _ = strconv.Atoi(l)
	}
	sw.Serve(o)
}
