// mongo-go-driver bson 1.8.4 (Debian 12: golang-mongodb-mongo-driver-dev) on bson_decode: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//
//	0d 00 00 00 05 62 00 00 00 00 00 02 00
//
// What the spec requires (BSON 1.1, bsonspec.org/spec.html): rejected, offset 12: old binary length
// Exit status: 1 while the library answers otherwise, 0 once it agrees.
// Run it with GO111MODULE=off and GOPATH naming the library's sources.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go.mongodb.org/mongo-driver/bson"
	"os"
	"reflect"
)

const library = "mongo-go-driver bson 1.8.4 (Debian 12: golang-mongodb-mongo-driver-dev)"
const spec = "BSON 1.1, bsonspec.org/spec.html"
const inputJSON = "{\"bson\":\"0d000000056200000000000200\"}"
const expectJSON = "{\"outcome\":\"rejected\",\"offset\":12,\"message\":\"offset 12: old binary length\"}"

// call: bson.Raw.Validate, then bson.Unmarshal, of the bytes (and bson.Marshal of what it read).
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
}

func main() {
	got, err := protect(call)
	if nf, ok := err.(interface{ NoForm() string }); ok { // the conversion found no Go form
		fmt.Printf("the input has no form %s takes, so nothing was compared: %s\n", library, nf.NoForm())
		os.Exit(2)
	}
	var expect struct {
		Outcome string                     `json:"outcome"`
		Message string                     `json:"message"`
		Answer  map[string]json.RawMessage `json:"answer"`
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
