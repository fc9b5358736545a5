// gocql 1.3.2 (Debian 12: golang-github-gocql-gocql-dev), gocql.Marshal on cql_encode_scalar: a reproducer written by serdiff (serdiff repro --upstream).
//
// It calls the library directly, without serdiff, on this input:
//
//	v4 payload ascii = \'\xc3\xa9\'
//
// What the spec requires (CQL native protocol v4 (apache/cassandra doc/native_protocol_v4.spec), section 6 (values, collections, tuples), 7 (user types)): rejected, ref cql encode: ascii above 127
// Exit status: 1 while the library answers otherwise, 0 once it agrees.
// Run it with GO111MODULE=off and GOPATH naming the library's sources.
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gocql/gocql"
	"gopkg.in/inf.v0"
	"math"
	"math/big"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
)

const library = "gocql 1.3.2 (Debian 12: golang-github-gocql-gocql-dev), gocql.Marshal"
const spec = "CQL native protocol v4 (apache/cassandra doc/native_protocol_v4.spec), section 6 (values, collections, tuples), 7 (user types)"
const inputJSON = "{\"type\":\"ascii\",\"value\":\"é\",\"version\":4}"
const expectJSON = "{\"outcome\":\"rejected\",\"offset\":null,\"message\":\"ref cql encode: ascii above 127\"}"

// noForm: an input with no Go form gocql takes (the program then exits 2: nothing compared).
type noForm struct{ message string }

func (e noForm) Error() string  { return "no Go form gocql takes: " + e.message }
func (e noForm) NoForm() string { return e.message }

func declined(message string) error { return noForm{message} }

// ---- serdiff's type text ------------------------------------------------------------------

type cqlType struct {
	kind   string    // "int", "list", "udt", ...
	params []cqlType // element types; map: key, value; tuple, udt: the components
	fields []string  // udt: the field names
	name   string    // udt: the type's name
}

type typeParser struct {
	toks []string
	i    int
}

func tokenize(s string) []string {
	var toks []string
	cur := ""
	flush := func() {
		if cur != "" {
			toks = append(toks, cur)
			cur = ""
		}
	}
	for _, r := range s {
		switch {
		case r == '<' || r == '>' || r == ',':
			flush()
			toks = append(toks, string(r))
		case r == ' ' || r == '\t':
			flush()
		default:
			cur += string(r)
		}
	}
	flush()
	return toks
}

func (p *typeParser) next() string {
	if p.i >= len(p.toks) {
		return ""
	}
	p.i++
	return p.toks[p.i-1]
}

func (p *typeParser) peek() string {
	if p.i >= len(p.toks) {
		return ""
	}
	return p.toks[p.i]
}

func (p *typeParser) parse() (cqlType, error) {
	t := cqlType{kind: strings.ToLower(p.next())}
	if t.kind == "" || t.kind == "<" || t.kind == ">" || t.kind == "," {
		return t, fmt.Errorf("a type name expected at token %d", p.i)
	}
	if p.peek() != "<" {
		return t, nil
	}
	p.next()
	if t.kind == "udt" {
		t.name = p.next()
		for p.peek() == "," {
			p.next()
			t.fields = append(t.fields, p.next())
			f, err := p.parse()
			if err != nil {
				return t, err
			}
			t.params = append(t.params, f)
		}
	} else {
		for {
			e, err := p.parse()
			if err != nil {
				return t, err
			}
			t.params = append(t.params, e)
			if p.peek() != "," {
				break
			}
			p.next()
		}
	}
	if p.next() != ">" {
		return t, fmt.Errorf("'>' expected in %v", p.toks)
	}
	return t, nil
}

var natives = map[string]gocql.Type{
	"boolean": gocql.TypeBoolean, "tinyint": gocql.TypeTinyInt, "smallint": gocql.TypeSmallInt,
	"int": gocql.TypeInt, "bigint": gocql.TypeBigInt, "counter": gocql.TypeCounter,
	"varint": gocql.TypeVarint, "float": gocql.TypeFloat, "double": gocql.TypeDouble,
	"decimal": gocql.TypeDecimal, "text": gocql.TypeText, "varchar": gocql.TypeVarchar,
	"ascii": gocql.TypeAscii, "blob": gocql.TypeBlob, "uuid": gocql.TypeUUID,
	"timeuuid": gocql.TypeTimeUUID, "inet": gocql.TypeInet, "timestamp": gocql.TypeTimestamp,
	"date": gocql.TypeDate, "time": gocql.TypeTime, "duration": gocql.TypeDuration,
}

func typeInfo(t cqlType, proto byte) (gocql.TypeInfo, error) {
	if n, ok := natives[t.kind]; ok && len(t.params) == 0 {
		return gocql.NewNativeType(proto, n, ""), nil
	}
	sub := func(i int) (gocql.TypeInfo, error) { return typeInfo(t.params[i], proto) }
	switch {
	case (t.kind == "list" || t.kind == "set") && len(t.params) == 1:
		e, err := sub(0)
		kind := gocql.TypeList
		if t.kind == "set" {
			kind = gocql.TypeSet
		}
		return gocql.CollectionType{NativeType: gocql.NewNativeType(proto, kind, ""), Elem: e}, err
	case t.kind == "map" && len(t.params) == 2:
		k, err := sub(0)
		if err != nil {
			return nil, err
		}
		v, err := sub(1)
		return gocql.CollectionType{NativeType: gocql.NewNativeType(proto, gocql.TypeMap, ""),
			Key: k, Elem: v}, err
	case t.kind == "tuple":
		info := gocql.TupleTypeInfo{NativeType: gocql.NewNativeType(proto, gocql.TypeTuple, "")}
		for i := range t.params {
			e, err := sub(i)
			if err != nil {
				return nil, err
			}
			info.Elems = append(info.Elems, e)
		}
		return info, nil
	case t.kind == "udt":
		info := gocql.UDTTypeInfo{NativeType: gocql.NewNativeType(proto, gocql.TypeUDT, ""),
			Name: t.name}
		for i := range t.params {
			e, err := sub(i)
			if err != nil {
				return nil, err
			}
			info.Elements = append(info.Elements, gocql.UDTField{Name: t.fields[i], Type: e})
		}
		return info, nil
	}
	return nil, fmt.Errorf("no gocql type for %q", t.kind)
}

// ---- CQL JSON values to gocql's Go forms ------------------------------------------------------

func text(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	}
	return "", fmt.Errorf("%T where a number or a string was expected", v)
}

func int64Of(v any) (int64, error) {
	s, err := text(v)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(s, 10, 64)
}

func floatOf(v any, bits int) (float64, error) {
	s, err := text(v)
	if err != nil {
		return 0, err
	}
	switch s {
	case "NaN": // the canonical quiet NaN (math.NaN() is 7ff8000000000001)
		return math.Float64frombits(0x7ff8000000000000), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	case "-0":
		return math.Copysign(0, -1), nil
	}
	return strconv.ParseFloat(s, bits)
}

func hexField(v any) ([]byte, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(`%T where {"hex": ...} was expected`, v)
	}
	s, _ := m["hex"].(string)
	return hex.DecodeString(s)
}

func goValue(t cqlType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.kind {
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%T for a boolean", v)
		}
		return b, nil
	case "tinyint", "smallint", "int", "time":
		return int64Of(v)
	case "bigint", "counter":
		return text(v)
	case "varint":
		s, err := text(v)
		if err != nil {
			return nil, err
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("varint %q", s)
		}
		return n, nil
	case "float":
		f, err := floatOf(v, 32)
		if math.IsNaN(f) {
			return math.Float32frombits(0x7fc00000), err
		}
		return float32(f), err
	case "double":
		return floatOf(v, 64)
	case "decimal":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%T for a decimal", v)
		}
		s, err := text(m["unscaled"])
		if err != nil {
			return nil, err
		}
		unscaled, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("unscaled %q", s)
		}
		scale, err := int64Of(m["scale"])
		if err != nil || scale < math.MinInt32 || scale > math.MaxInt32 {
			return nil, fmt.Errorf("scale %v", m["scale"])
		}
		return inf.NewDecBig(unscaled, inf.Scale(scale)), nil
	case "text", "varchar", "ascii":
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%T for %s", v, t.kind)
		}
		return s, nil
	case "blob":
		return hexField(v)
	case "inet":
		b, err := hexField(v)
		return net.IP(b), err
	case "uuid", "timeuuid":
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%T for a uuid", v)
		}
		return gocql.ParseUUID(s)
	case "timestamp":
		return int64Of(v)
	case "date":
		days, err := int64Of(v)
		if err != nil || days < 0 || days > math.MaxUint32 {
			return nil, fmt.Errorf("date %v", v)
		}
		return (days - 1<<31) * 86400000, nil
	case "duration":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%T for a duration", v)
		}
		months, err1 := int64Of(m["months"])
		days, err2 := int64Of(m["days"])
		nanos, err3 := int64Of(m["nanos"])
		if err1 != nil || err2 != nil || err3 != nil || months != int64(int32(months)) ||
			days != int64(int32(days)) {
			return nil, fmt.Errorf("duration %v", v)
		}
		return gocql.Duration{Months: int32(months), Days: int32(days), Nanoseconds: nanos}, nil
	case "list", "set":
		items, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T for a %s", v, t.kind)
		}
		out := make([]interface{}, len(items))
		for i, it := range items {
			e, err := goValue(t.params[0], it)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case "map":
		pairs, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T for a map", v)
		}
		if len(pairs) > 1 {
			return nil, declined(fmt.Sprintf("a map of %d entries: gocql.Marshal takes a Go "+
				"map, which keeps no order (it writes the entries in Go's random iteration order)",
				len(pairs)))
		}
		out := map[interface{}]interface{}{}
		for _, p := range pairs {
			kv, ok := p.([]any)
			if !ok || len(kv) != 2 {
				return nil, fmt.Errorf("a map entry %v", p)
			}
			k, err := goValue(t.params[0], kv[0])
			if err != nil {
				return nil, err
			}
			e, err := goValue(t.params[1], kv[1])
			if err != nil {
				return nil, err
			}
			if !hashable(k) {
				return nil, declined(fmt.Sprintf("a %s map key: its Go form (%T) cannot be a "+
					"Go map key", t.params[0].kind, k))
			}
			if isNaN(k) {
				return nil, declined("a NaN map key: a Go map stores it but cannot look it up " +
					"again (NaN != NaN), so gocql's marshalMap would find no value for it")
			}
			out[k] = e
		}
		return out, nil
	case "tuple":
		items, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T for a tuple", v)
		}
		out := make([]interface{}, len(items))
		for i, it := range items {
			if i >= len(t.params) {
				return nil, fmt.Errorf("a tuple of %d components for %d", len(items), len(t.params))
			}
			e, err := goValue(t.params[i], it)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case "udt":
		items, ok := v.([]any)
		if !ok || len(items) > len(t.params) {
			return nil, fmt.Errorf("%v for a udt of %d fields", v, len(t.params))
		}
		if len(items) < len(t.params) {
			return nil, declined(fmt.Sprintf("a udt value of %d fields for a type of %d: "+
				"gocql.Marshal writes every field of the type (a missing one as null)",
				len(items), len(t.params)))
		}
		out := map[string]interface{}{}
		for i, it := range items {
			e, err := goValue(t.params[i], it)
			if err != nil {
				return nil, err
			}
			out[t.fields[i]] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("no Go form for %q", t.kind)
}

func isNaN(k any) bool {
	switch f := k.(type) {
	case float32:
		return f != f
	case float64:
		return f != f
	}
	return false
}

func hashable(k any) bool {
	switch k.(type) {
	case []byte, net.IP, []interface{}, map[interface{}]interface{}, map[string]interface{}:
		return false
	}
	return true
}

type marshalArgs struct {
	info  gocql.TypeInfo
	value any
}

// prepareCall reads the op's input object (numbers as json.Number): the type text as gocql's
// TypeInfo at the protocol version, the value in its Go form.
func prepareCall(input map[string]any) (marshalArgs, error) {
	typeText, _ := input["type"].(string)
	p := &typeParser{toks: tokenize(typeText)}
	t, err := p.parse()
	if err != nil || p.i != len(p.toks) {
		return marshalArgs{}, declined(fmt.Sprintf("type %q: not a type this worker reads", typeText))
	}
	version, err := int64Of(input["version"])
	if err != nil || version < 1 || version > 5 {
		return marshalArgs{}, declined(fmt.Sprintf("protocol version %v", input["version"]))
	}
	info, err := typeInfo(t, byte(version))
	if err != nil {
		return marshalArgs{}, declined(err.Error())
	}
	value, err := goValue(t, input["value"])
	if err != nil {
		return marshalArgs{}, err
	}
	return marshalArgs{info, value}, nil
}

// marshalCall is gocql.Marshal; a null written for a value that is not null is refused.
func marshalCall(c marshalArgs) ([]byte, error) {
	b, err := gocql.Marshal(c.info, c.value)
	if err != nil {
		return nil, errors.New("gocql.Marshal: " + err.Error())
	}
	if b == nil && c.value != nil {
		return nil, errors.New("gocql.Marshal wrote null (no bytes) for a value that is not null")
	}
	return b, nil
}

// call: the type text and the value in gocql's Go forms, then gocql.Marshal.
func call(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var input map[string]any
	if err := dec.Decode(&input); err != nil {
		return nil, err
	}
	c, err := prepareCall(input)
	if err != nil {
		return nil, err
	}
	b, err := marshalCall(c)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hex": hex.EncodeToString(b)}, nil
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
