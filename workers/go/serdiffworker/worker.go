// Package serdiffworker speaks serdiff's worker protocol (version 1) for a worker written in
// Go, so that the worker only writes its operations. The protocol and the contract this package
// follows to the letter are in docs/workers.md ("The worker protocol", "The worker library
// contract"); tests/worker_conformance/ checks every rule (ctest workers.ConformanceGo).
//
// A worker calls Serve once, with its name and its ops in the order the hello lists them:
//
//	serdiffworker.Serve(serdiffworker.Options{
//		Name: "go_bson",
//		Ops: []serdiffworker.NamedOp{
//			{Name: "bson.decode", Op: serdiffworker.Op{Prepare: ..., Run: ..., Finish: ...}},
//		},
//	})
//
// An op's steps: Prepare turns the request into the library's own values (optional; without it
// Run receives the *Request), Run is the library's call (the only step measured for the peak
// and timed for "time"), Finish turns Run's result into bytes or a value (optional; without it
// Run's result must itself be a Result). A step says no by returning a *Rejected (the library
// refused the input; Offset in bytes, or -1 when unknown) or a *Declined (the library cannot
// take this input); any other error, or a panic, is classified as the contract says: in Run a
// rejection with the text "Type: message", in Prepare a decline "input not taken: ...", in
// Finish a decline "result not presentable: ...". Type is the error's dynamic type name with
// the pointer and package removed (errors.New gives "errorString").
//
// Timed calls (docs/workers.md, "Timed calls"): a request's "time": N (1..100000) adds to an
// accepted answer "ns", the nanoseconds of N more runs of Run alone; with "batch": B (2..1000000)
// each of the N timings is of B runs in a row, and the answer says "batch": B.
//
// Build: GOPATH mode (GO111MODULE=off), the package at import path "serdiffworker";
// workers/go/run builds and runs a worker with it, and the Debian packages' Go sources
// (/usr/share/gocode) on GOPATH.
package serdiffworker

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

const (
	protocolVersion = 1
	// MaxFrame is the longest frame the protocol allows: 256 MiB (docs/workers.md).
	MaxFrame = 268435456
	maxID    = 1<<53 - 1 // the largest integer every JSON reader holds exactly
	maxTimed = 100000    // the most timed calls one request may ask for
	maxBatch = 1000000   // the most calls one timing of a request's "batch" may hold

	exitEOF       = 0 // stdin ended at a frame boundary
	exitProtocol  = 2 // a malformed frame or request
	exitWorkerBug = 4 // the worker's own code broke the contract

	rehearseMaxRequest = 256 << 10 // Options.Rehearse: requests of at most this many bytes
	// collectAbove: the collector is off during calls; between requests, a collection runs once
	// the live heap has grown by this much since the last one.
	collectAbove = 64 << 20
)

// Rejected is the error a step returns when the implementation refused the input.
type Rejected struct {
	Message string
	Offset  int // bytes into the input; -1 (or any negative) when the implementation knows none
}

func (e *Rejected) Error() string { return e.Message }

// Reject returns a *Rejected without an offset.
func Reject(message string) error { return &Rejected{Message: message, Offset: -1} }

// RejectAt returns a *Rejected at offset bytes into the input.
func RejectAt(message string, offset int) error { return &Rejected{Message: message, Offset: offset} }

// Declined is the error a step returns when the implementation cannot take this input (a type it
// lacks): the answer is not compared.
type Declined struct{ Message string }

func (e *Declined) Error() string { return e.Message }

// Decline returns a *Declined.
func Decline(message string) error { return &Declined{Message: message} }

// Result is what an op answers: bytes (Hex) or a JSON value (Value). The zero Result is neither,
// a bug in the worker (the worker exits with status 4).
type Result struct {
	kind  int // 0 none, 1 bytes, 2 value
	bytes []byte
	value any
}

// Hex answers the output bytes (sent as lower-case hex).
func Hex(b []byte) Result { return Result{kind: 1, bytes: b} }

// Value answers a JSON value: anything encoding/json marshals (json.Number and json.RawMessage
// pass through as written). A NaN or an infinity, or a string or key that is not UTF-8, makes
// the answer a decline ("result not presentable: ...").
func Value(v any) Result { return Result{kind: 2, value: v} }

// Request is one request as Prepare (or Run without Prepare) sees it.
type Request struct {
	ID       int64
	Op       string
	Input    map[string]any  // the input object; numbers as json.Number
	RawInput json.RawMessage // the input's JSON text, as sent (its key order kept)
}

// Op is one operation: Run is required, Prepare and Finish are optional.
type Op struct {
	Prepare func(req *Request) (any, error)
	Run     func(arg any) (any, error)
	Finish  func(result any) (Result, error)
}

// Func makes an op of one step from a function of the request.
func Func(f func(req *Request) (Result, error)) Op {
	return Op{Run: func(arg any) (any, error) { return f(arg.(*Request)) }}
}

// NamedOp pairs an op with its name; Options.Ops keeps the order the hello lists.
type NamedOp struct {
	Name string
	Op   Op
}

// Options are Serve's named arguments (docs/workers.md, "Starting").
type Options struct {
	Name       string    // the implementation's name, as in the manifest (required)
	Ops        []NamedOp // ignored when Declined is set
	Peak       string    // the hello's sentence on the peak; the library's own when empty
	Declined   string    // a reason: the worker cannot run; every request is declined with it
	FrameLimit int       // the longest frame read or written; MaxFrame when 0; lower in tests
	Rehearse   bool      // run each op's Run once unmeasured before the measured run
	Library    string    // the library's name and version found at run time (the hello's "library"); none when empty
}

// PeakText is the hello's default sentence on how the peak is measured.
const PeakText = "bytes the call allocated on the Go heap (runtime.MemStats.TotalAlloc after " +
	"minus before, the collector off during the call): at least the call's peak, since memory " +
	"freed during the call is still counted; memory outside the Go heap (cgo, mmap) is not seen"

type protocolError struct{ text string }

func (e *protocolError) Error() string { return e.text }

type workerBug struct{ text string }

func (e *workerBug) Error() string { return e.text }

// typeName: the error's dynamic type, pointer and package removed.
func typeName(v any) string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Name() == "" {
		return "error"
	}
	return t.Name()
}

// errorText: "Type: message", or the type alone when the message is empty; a panic value that
// is not an error gives its text alone (as a JavaScript throw of a string does).
func errorText(v any) string {
	err, ok := v.(error)
	if !ok {
		return fmt.Sprint(v)
	}
	if text := err.Error(); text != "" {
		return typeName(err) + ": " + text
	}
	return typeName(err)
}

// call runs f, turning a panic into an error that errorText shows as the panic's value.
func call(f func() (any, error)) (r any, err error) {
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(error); ok {
				err = pe
			} else {
				err = &panicValue{v: p}
			}
		}
	}()
	return f()
}

type panicValue struct{ v any }

func (p *panicValue) Error() string { return fmt.Sprint(p.v) }

func classify(id int64, err error, peak int64, withPeak bool) map[string]any {
	var d *Declined
	if errors.As(err, &d) {
		return declinedAnswer(id, d.Message)
	}
	var r *Rejected
	if errors.As(err, &r) {
		a := map[string]any{"id": id, "ok": false, "error": "rejected", "message": r.Message}
		if r.Offset >= 0 {
			a["offset"] = r.Offset
		}
		if withPeak {
			a["peak"] = peak
		}
		return a
	}
	return nil
}

func declinedAnswer(id int64, message string) map[string]any {
	return map[string]any{"id": id, "ok": false, "error": "declined", "message": message}
}

func unclassified(err error) string {
	if pv, ok := err.(*panicValue); ok {
		return errorText(pv.v)
	}
	return errorText(err)
}

type server struct {
	name     string
	ops      map[string]Op
	rehearse bool
	limit    int
	out      *os.File
	lastHeap uint64
	stats    runtime.MemStats
}

func (s *server) allocated() int64 {
	runtime.ReadMemStats(&s.stats)
	return int64(s.stats.TotalAlloc)
}

// A request's "time", "batch" and "peak" as they came (nil when absent).
type timing struct{ time, batch, peak json.RawMessage }

// The integer in raw when it is one in lo..hi, else 0.
func intIn(raw json.RawMessage, lo, hi int64) int {
	if raw == nil {
		return 0
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0
	}
	return int(n)
}

func timedCalls(raw json.RawMessage) int { return intIn(raw, 1, maxTimed) }

// Calls per timing: a request's "batch" when it is an integer in 2..maxBatch, else 1.
func batchOf(raw json.RawMessage) int {
	if b := intIn(raw, 2, maxBatch); b > 0 {
		return b
	}
	return 1
}

func (s *server) answer(req *Request, rawTime timing, rawLen int) (map[string]any, error) {
	id := req.ID
	op, ok := s.ops[req.Op]
	if !ok {
		return declinedAnswer(id, fmt.Sprintf("%s does not answer op %q", s.name, req.Op)), nil
	}
	var arg any = req
	if op.Prepare != nil {
		a, err := call(func() (any, error) { return op.Prepare(req) })
		if err != nil { // the input has no form the library takes
			if c := classify(id, err, 0, false); c != nil {
				return c, nil
			}
			return declinedAnswer(id, "input not taken: "+unclassified(err)), nil
		}
		arg = a
	}
	// "peak": false: serdiff does not need this call's peak, so the call runs once, unmeasured,
	// and the answer carries none (docs/workers.md).
	measure := string(rawTime.peak) != "false"
	if measure && s.rehearse && rawLen <= rehearseMaxRequest {
		call(func() (any, error) { return op.Run(arg) }) // result or error dropped
	}
	var before, peak int64
	if measure {
		before = s.allocated()
	}
	result, err := call(func() (any, error) { return op.Run(arg) })
	if measure {
		if peak = s.allocated() - before; peak < 0 {
			peak = 0
		}
	}
	if err != nil { // the library refused the input
		if c := classify(id, err, peak, measure); c != nil {
			return c, nil
		}
		a := map[string]any{"id": id, "ok": false, "error": "rejected", "message": unclassified(err)}
		if measure {
			a["peak"] = peak
		}
		return a, nil
	}
	var res Result
	if op.Finish != nil {
		r, err := call(func() (any, error) { return op.Finish(result) })
		if err != nil { // an accepted result the worker cannot present
			if c := classify(id, err, peak, measure); c != nil {
				return c, nil
			}
			return declinedAnswer(id, "result not presentable: "+unclassified(err)), nil
		}
		res, _ = r.(Result)
	} else {
		res, _ = result.(Result)
	}
	var a map[string]any
	switch res.kind {
	case 1:
		a = map[string]any{"id": id, "ok": true, "hex": hex.EncodeToString(res.bytes)}
	case 2:
		a = map[string]any{"id": id, "ok": true, "value": res.value}
	default:
		return nil, &workerBug{fmt.Sprintf("op %q (id %d) returned %s, not serdiffworker.Hex(bytes) "+
			"or serdiffworker.Value(v)", req.Op, id, describe(result, op.Finish != nil))}
	}
	if measure {
		a["peak"] = peak
	}
	if n := timedCalls(rawTime.time); n > 0 {
		batch := batchOf(rawTime.batch)
		run := func() (any, error) { return op.Run(arg) }
		ns := make([]int64, n)
		for i := range ns {
			t0 := time.Now()
			for b := 0; b < batch; b++ {
				call(run)
			}
			ns[i] = int64(time.Since(t0))
		}
		a["ns"] = ns
		if batch > 1 {
			a["batch"] = batch
		}
	}
	return a, nil
}

func describe(result any, finished bool) string {
	what := "run"
	if finished {
		what = "finish"
	}
	if result == nil {
		return "nil from " + what
	}
	return fmt.Sprintf("a %T from %s", result, what)
}

// checkValue refuses what JSON cannot carry as it is: a NaN or infinite float, a string or key
// that is not UTF-8 (a Go string holding a lone surrogate's bytes, say).
func checkValue(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkValue(v.Elem())
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%v is not a JSON number", f)
		}
	case reflect.String:
		if v.Type() == reflect.TypeOf(json.Number("")) {
			return nil
		}
		if !utf8.ValidString(v.String()) {
			return errors.New("a string that is not UTF-8 (a lone surrogate, say) has no JSON form")
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // []byte: encoding/json writes base64
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkValue(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if k := it.Key(); k.Kind() == reflect.String && !utf8.ValidString(k.String()) {
				return errors.New("a key that is not UTF-8 (a lone surrogate, say) has no JSON form")
			}
			if err := checkValue(it.Value()); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				if err := checkValue(v.Field(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func marshal(a map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func (s *server) body(a map[string]any) []byte {
	id := a["id"].(int64)
	if m, ok := a["message"].(string); ok {
		a["message"] = strings.ToValidUTF8(m, "\uFFFD")
	}
	var b []byte
	err := error(nil)
	if v, ok := a["value"]; ok {
		err = checkValue(reflect.ValueOf(v))
	}
	if err == nil {
		b, err = marshal(a)
	}
	if err != nil {
		b, _ = marshal(declinedAnswer(id, "result not presentable: "+errorText(err)))
	}
	if len(b) > s.limit { // serdiff would take it for a protocol error
		b, _ = marshal(declinedAnswer(id, fmt.Sprintf(
			"the answer of %d bytes is over the frame limit of %d bytes", len(b), s.limit)))
	}
	return b
}

func (s *server) write(body []byte) {
	frame := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	if _, err := s.out.Write(frame); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			os.Exit(exitEOF) // serdiff went away: nothing to answer
		}
		s.die(exitWorkerBug, "cannot write its answers: "+err.Error())
	}
}

func (s *server) die(status int, message string) {
	fmt.Fprintf(os.Stderr, "%s worker: %s\n", s.name, message)
	os.Exit(status)
}

// parseRequest checks a request's frame: UTF-8 JSON holding one object with an integer id in
// 0..2^53-1, a string op and an object input.
func parseRequest(body []byte) (*Request, timing, error) {
	if !utf8.Valid(body) {
		return nil, timing{}, &protocolError{"a frame that is not UTF-8"}
	}
	if bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) {
		return nil, timing{}, &protocolError{"a frame that starts with a byte order mark"}
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&fields); err != nil || fields == nil {
		if err == nil || strings.Contains(err.Error(), "cannot unmarshal") {
			return nil, timing{}, &protocolError{"a frame that is not one JSON object"}
		}
		return nil, timing{}, &protocolError{"a frame that is not UTF-8 JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, timing{}, &protocolError{"a frame that is not one JSON object"}
	}
	rawID, ok := fields["id"]
	if !ok {
		return nil, timing{}, &protocolError{`a request without "id"`}
	}
	id, err := strconv.ParseInt(string(rawID), 10, 64)
	if err != nil {
		// 2.0 and 1e3 are integers too, as JavaScript reads them.
		f, ferr := strconv.ParseFloat(string(rawID), 64)
		if ferr != nil || f != math.Trunc(f) || f > maxID || f < 0 {
			return nil, timing{}, &protocolError{`a request whose "id" is not an integer in 0..2^53-1`}
		}
		id = int64(f)
	}
	if id < 0 || id > maxID {
		return nil, timing{}, &protocolError{`a request whose "id" is not an integer in 0..2^53-1`}
	}
	req := &Request{ID: id}
	rawOp, ok := fields["op"]
	if !ok {
		return nil, timing{}, &protocolError{`a request without "op"`}
	}
	if json.Unmarshal(rawOp, &req.Op) != nil || rawOp[0] != '"' {
		return nil, timing{}, &protocolError{`a request whose "op" is not a string`}
	}
	rawInput, ok := fields["input"]
	if !ok {
		return nil, timing{}, &protocolError{`a request without "input"`}
	}
	in := json.NewDecoder(bytes.NewReader(rawInput))
	in.UseNumber()
	if len(rawInput) == 0 || rawInput[0] != '{' || in.Decode(&req.Input) != nil {
		return nil, timing{}, &protocolError{`a request whose "input" is not a JSON object`}
	}
	req.RawInput = rawInput
	return req, timing{fields["time"], fields["batch"], fields["peak"]}, nil
}

// Serve answers requests on stdin until it ends, then exits the process (status 0 at a frame
// boundary, 2 on a malformed frame or request, 4 on a bug in the worker). It never returns. It
// panics before the hello when Name is empty, an op has no Run, or FrameLimit is out of range.
func Serve(o Options) {
	if o.Name == "" {
		panic("serdiffworker.Serve: Name must be a non-empty string")
	}
	limit := o.FrameLimit
	if limit == 0 {
		limit = MaxFrame
	}
	if limit < 1 || limit > MaxFrame {
		panic(fmt.Sprintf("serdiffworker.Serve: FrameLimit must be in 1..%d", MaxFrame))
	}
	s := &server{name: o.Name, ops: map[string]Op{}, rehearse: o.Rehearse, limit: limit}
	names := []string{}
	if o.Declined == "" {
		for _, n := range o.Ops {
			if n.Op.Run == nil {
				panic(fmt.Sprintf("serdiffworker.Serve: op %q has no Run", n.Name))
			}
			s.ops[n.Name] = n.Op
			names = append(names, n.Name)
		}
	}
	// Frames go to a copy of file descriptor 1; descriptor 1 itself becomes stderr, so whatever
	// the worker's code prints (fmt.Println, a cgo library's printf) cannot break a frame.
	fd, err := syscall.Dup(1)
	if err != nil {
		s.die(exitWorkerBug, "cannot keep its stdout: "+err.Error())
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		s.die(exitWorkerBug, "cannot move stdout to stderr: "+err.Error())
	}
	syscall.CloseOnExec(fd)
	s.out = os.NewFile(uintptr(fd), "serdiff-frames")

	var hello map[string]any
	if o.Declined != "" {
		hello = map[string]any{"serdiff_worker": protocolVersion, "name": o.Name,
			"declined": o.Declined}
	} else {
		peak := o.Peak
		if peak == "" {
			peak = PeakText
		}
		hello = map[string]any{"serdiff_worker": protocolVersion, "name": o.Name, "ops": names,
			"peak": peak}
		if o.Library != "" {
			hello["library"] = o.Library
		}
		// The collector runs between requests only (collect, below), never inside a call.
		debug.SetGCPercent(-1)
		runtime.GC()
		runtime.ReadMemStats(&s.stats)
		s.lastHeap = s.stats.HeapAlloc
	}
	b, _ := marshal(hello)
	s.write(b)

	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	var head [4]byte
	for {
		n, err := io.ReadFull(in, head[:])
		if err == io.EOF && n == 0 {
			os.Exit(exitEOF)
		}
		if err != nil {
			s.die(exitProtocol, "protocol error: the stream ended inside a frame length")
		}
		size := binary.BigEndian.Uint32(head[:])
		if int64(size) > int64(limit) {
			s.die(exitProtocol, fmt.Sprintf("protocol error: a frame of %d bytes (limit %d)", size,
				limit))
		}
		body := make([]byte, size)
		if got, err := io.ReadFull(in, body); err != nil {
			s.die(exitProtocol, fmt.Sprintf(
				"protocol error: the stream ended inside a frame (%d of %d bytes)", got, size))
		}
		req, rawTime, err := parseRequest(body)
		if err != nil {
			s.die(exitProtocol, "protocol error: "+err.Error())
		}
		var a map[string]any
		if o.Declined != "" {
			a = declinedAnswer(req.ID, o.Declined)
		} else {
			a, err = s.answer(req, rawTime, len(body))
			if err != nil {
				s.die(exitWorkerBug, "bug in the worker: "+err.Error())
			}
		}
		s.write(s.body(a))
		if o.Declined == "" {
			s.collect()
		}
	}
}

// collect runs the collector between requests once the live heap has grown by collectAbove.
func (s *server) collect() {
	runtime.ReadMemStats(&s.stats)
	if s.stats.HeapAlloc > s.lastHeap+collectAbove {
		runtime.GC()
		runtime.ReadMemStats(&s.stats)
		s.lastHeap = s.stats.HeapAlloc
	}
}
