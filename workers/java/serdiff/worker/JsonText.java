// JSON for SerdiffWorker: Gson's strict reader and writer, and the checks that keep an answer
// one serdiff can read (no NaN or infinity, no lone surrogate; docs/workers.md, the contract's
// value.not-json and lone-surrogate rows).
package serdiff.worker;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

final class JsonText {
  private JsonText() {}

  static final TypeAdapter<JsonElement> ELEMENT = new Gson().getAdapter(JsonElement.class);

  static JsonElement parse(String text) throws IOException {
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = ELEMENT.read(r);
    if (r.peek() != JsonToken.END_DOCUMENT) throw new IOException("text after the value");
    return e;
  }

  /** A Java value as a JsonElement; IllegalArgumentException when JSON cannot carry it. */
  static JsonElement toJson(Object v) {
    if (v == null) return JsonNull.INSTANCE;
    if (v instanceof JsonElement) {
      checkJson((JsonElement) v);
      return (JsonElement) v;
    }
    if (v instanceof String) {
      checkString((String) v);
      return new JsonPrimitive((String) v);
    }
    if (v instanceof Boolean) return new JsonPrimitive((Boolean) v);
    if (v instanceof Number) {
      JsonPrimitive p = new JsonPrimitive((Number) v);
      checkJson(p);
      return p;
    }
    if (v instanceof Map) {
      JsonObject o = new JsonObject();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException("a key that is not a String has no JSON form");
        }
        checkString((String) e.getKey());
        o.add((String) e.getKey(), toJson(e.getValue()));
      }
      return o;
    }
    if (v instanceof List) {
      JsonArray a = new JsonArray();
      for (Object x : (List<?>) v) a.add(toJson(x));
      return a;
    }
    throw new IllegalArgumentException("a " + v.getClass().getName() + " has no JSON form");
  }

  static void checkJson(JsonElement e) {
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
        checkString(m.getKey());
        checkJson(m.getValue());
      }
    } else if (e.isJsonArray()) {
      for (JsonElement x : e.getAsJsonArray()) checkJson(x);
    } else if (e.isJsonPrimitive()) {
      JsonPrimitive p = e.getAsJsonPrimitive();
      if (p.isString()) {
        checkString(p.getAsString());
      } else if (p.isNumber()) {
        Number n = p.getAsNumber();
        if ((n instanceof Double || n instanceof Float)
            && (Double.isNaN(n.doubleValue()) || Double.isInfinite(n.doubleValue()))) {
          throw new IllegalArgumentException(n + " is not a JSON number");
        }
      }
    }
  }

  static int loneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        return i;
      }
      if (Character.isLowSurrogate(c)) return i;
    }
    return -1;
  }

  static void checkString(String s) {
    if (loneSurrogate(s) >= 0) {
      throw new IllegalArgumentException(
          "a string holding a lone surrogate has no UTF-8 (so no JSON) form");
    }
  }

  static String wellFormed(String s) {
    if (loneSurrogate(s) < 0) return s;
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        b.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        b.append('\uFFFD');
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static String write(JsonElement e) throws IOException {
    StringWriter sw = new StringWriter();
    JsonWriter w = new JsonWriter(sw);
    w.setLenient(false);
    w.setHtmlSafe(false);
    w.setSerializeNulls(true);
    ELEMENT.write(w, e);
    w.flush();
    return sw.toString();
  }

}
