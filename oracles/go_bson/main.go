// The go_bson worker: mongo-go-driver's BSON package (Debian 12's golang-mongodb-mongo-driver-dev
// 1.8.4) on serdiff's BSON targets, through the Go worker library (workers/go/serdiffworker).
// docs/workers.md states the protocol and the interchange; docs/peers.md what this peer does
// differently from the spec.
//
//	bson.encode      {"document": Extended JSON v2, canonical} -> bson.UnmarshalExtJSON into a
//	                 bson.D (prepare), bson.Marshal (run); {"bson": hex} -> bson.Unmarshal into a
//	                 bson.D (prepare), bson.Marshal (run)
//	bson.decode      {"bson": hex} -> bson.Raw(b).Validate, then bson.Unmarshal into a bson.D
//	                 (run); the answer is the
//	                 document written again by bson.Marshal (not compared: the target compares
//	                 accept or reject)
//	bson.array_keys  {"count": n} -> bson.Marshal of {a: bson.A of n nils}; the answer is the
//	                 array's keys, each with its NUL, cut out of the document
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/version"
	sw "serdiffworker"
)

const name = "go_bson"

func hexInput(req *sw.Request, key string) ([]byte, error) {
	s, ok := req.Input[key].(string)
	if !ok {
		return nil, sw.Decline(fmt.Sprintf("input %q is not a hex string", key))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, sw.Decline(fmt.Sprintf("input %q is not a hex string", key))
	}
	return b, nil
}

func encodePrepare(req *sw.Request) (any, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(req.RawInput, &fields); err != nil {
		return nil, err
	}
	if raw, ok := fields["document"]; ok {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, sw.Decline(`input "document" is not a JSON object`)
		}
		var d bson.D
		if err := bson.UnmarshalExtJSON(raw, true, &d); err != nil {
			return nil, sw.Reject("bson.UnmarshalExtJSON: " + err.Error())
		}
		return d, nil
	}
	if _, ok := fields["bson"]; ok {
		b, err := hexInput(req, "bson")
		if err != nil {
			return nil, err
		}
		var d bson.D
		if err := bson.Unmarshal(b, &d); err != nil {
			return nil, sw.Decline("bson.Unmarshal cannot read the document to write it again: " +
				err.Error())
		}
		return d, nil
	}
	return nil, sw.Decline(`input has neither "document" nor "bson"`)
}

func marshal(arg any) (any, error) {
	b, err := bson.Marshal(arg)
	if err != nil {
		return nil, sw.Reject("bson.Marshal: " + err.Error())
	}
	return sw.Hex(b), nil
}

func decodeRun(arg any) (any, error) {
	// bson.Raw's Validate walks the bytes without building anything; only a document it takes
	// is unmarshalled, so a rejection costs no model of what came before the bad byte.
	if err := bson.Raw(arg.([]byte)).Validate(); err != nil {
		return nil, sw.Reject("bson.Raw.Validate: " + err.Error())
	}
	var d bson.D
	if err := bson.Unmarshal(arg.([]byte), &d); err != nil {
		return nil, sw.Reject("bson.Unmarshal: " + err.Error())
	}
	return d, nil
}

func decodeFinish(r any) (sw.Result, error) {
	b, err := bson.Marshal(r)
	if err != nil {
		return sw.Value(map[string]any{"accepted": true, "remarshal_error": err.Error()}), nil
	}
	return sw.Hex(b), nil
}

func arrayKeysPrepare(req *sw.Request) (any, error) {
	n, err := strconv.ParseInt(fmt.Sprint(req.Input["count"]), 10, 64)
	if err != nil || n < 0 || n > 1<<31-1 {
		return nil, sw.Decline(`input "count" is not an integer in 0..2^31-1`)
	}
	return int(n), nil
}

func arrayKeysRun(arg any) (any, error) {
	b, err := bson.Marshal(bson.D{{Key: "a", Value: make(bson.A, arg.(int))}})
	if err != nil {
		return nil, sw.Reject("bson.Marshal: " + err.Error())
	}
	return b, nil
}

// arrayKeysFinish cuts the keys out of {a: [null, ...]}: 4 length bytes, 0x04 "a" NUL, 4 length
// bytes, then per element 0x0A, the key, NUL.
func arrayKeysFinish(r any) (sw.Result, error) {
	doc := r.([]byte)
	keys := make([]byte, 0, len(doc))
	for i := 11; i < len(doc) && doc[i] == 0x0a; {
		i++
		for i < len(doc) && doc[i] != 0 {
			keys = append(keys, doc[i])
			i++
		}
		keys = append(keys, 0)
		i++
	}
	return sw.Hex(keys), nil
}

// ---- serdiff repro --upstream ----------------------------------------------------------------

var upstreamCalls = map[string]string{
	"bson.encode": `// call: bson.Marshal of the document, read from canonical Extended JSON or from BSON bytes.
func call(raw []byte) (map[string]any, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	var d bson.D
	if doc, ok := fields["document"]; ok {
		if err := bson.UnmarshalExtJSON(doc, true, &d); err != nil {
			return nil, err
		}
	} else {
		var h string
		if err := json.Unmarshal(fields["bson"], &h); err != nil {
			return nil, err
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, err
		}
		if err := bson.Unmarshal(b, &d); err != nil {
			return nil, err
		}
	}
	b, err := bson.Marshal(d)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hex": hex.EncodeToString(b)}, nil
}`,
	"bson.decode": `// call: bson.Raw.Validate, then bson.Unmarshal, of the bytes (and bson.Marshal of what it read).
func call(raw []byte) (map[string]any, error) {
	var in map[string]string
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(in["bson"])
	if err != nil {
		return nil, err
	}
	if err := bson.Raw(b).Validate(); err != nil {
		return nil, err
	}
	var d bson.D
	if err := bson.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	out, err := bson.Marshal(d)
	if err != nil { // the document was read; writing it back is not the call under test
		return map[string]any{}, nil
	}
	return map[string]any{"hex": hex.EncodeToString(out)}, nil
}`,
}

func upstream(req *sw.Request) (sw.Result, error) {
	op, _ := req.Input["op"].(string)
	c, ok := upstreamCalls[op]
	if !ok {
		return sw.Result{}, sw.Decline("go_bson writes no reproducer for op " + op)
	}
	return sw.UpstreamProgram(req, sw.Upstream{
		Library: "mongo-go-driver bson 1.8.4 (Debian 12: golang-mongodb-mongo-driver-dev)",
		Imports: []string{`"encoding/hex"`, `"go.mongodb.org/mongo-driver/bson"`},
		Call:    c,
	})
}

func main() {
	sw.Serve(sw.Options{
		Name:    name,
		Library: "mongo-go-driver bson " + version.Driver,
		Ops: []sw.NamedOp{
			{Name: "bson.encode", Op: sw.Op{Prepare: encodePrepare, Run: marshal}},
			{Name: "bson.decode", Op: sw.Op{
				Prepare: func(req *sw.Request) (any, error) { return hexInput(req, "bson") },
				Run:     decodeRun, Finish: decodeFinish}},
			{Name: "bson.array_keys", Op: sw.Op{Prepare: arrayKeysPrepare, Run: arrayKeysRun,
				Finish: arrayKeysFinish}},
			{Name: sw.UpstreamOp, Op: sw.Func(upstream)},
		},
		Rehearse: true,
	})
}
