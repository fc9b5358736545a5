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

  /**
   * What Gson's strict reader still takes that is not JSON (RFC 8259), or null: a control
   * character unescaped in a string, an escape other than the eight and \\uXXXX, a literal
   * not spelled true, false or null in lower case.
   */
  static String notJson(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c == '"') {
        for (i++; ; i++) {
          if (i >= n) return null; // unterminated: Gson reports it
          char d = text.charAt(i);
          if (d == '"') break;
          if (d < 0x20) return "a control character unescaped in a string";
          if (d != '\\') continue;
          if (++i >= n) return null;
          char e = text.charAt(i);
          if (e == 'u') {
            for (int k = 1; k <= 4; k++) {
              if (i + k >= n || Character.digit(text.charAt(i + k), 16) < 0) {
                return "a \\u escape without four hex digits";
              }
            }
            i += 4;
          } else if ("\"\\/bfnrt".indexOf(e) < 0) {
            return "the escape \\" + e;
          }
        }
      } else if (Character.isLetter(c)) {
        int start = i;
        while (i + 1 < n && Character.isLetter(text.charAt(i + 1))) i++;
        String word = text.substring(start, i + 1);
        boolean exponent = (word.equals("e") || word.equals("E")) && start > 0
            && (Character.isDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '.');
        if (!exponent && !word.equals("true") && !word.equals("false") && !word.equals("null")) {
          return "the literal " + word;
        }
      }
    }
    return null;
  }

  static JsonElement parse(String text) throws IOException {
    String problem = notJson(text);
    if (problem != null) throw new IOException(problem);
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = ELEMENT.read(r);
    if (r.peek() != JsonToken.END_DOCUMENT) throw new IOException("text after the value");
    return e;
  }

  /** A Java value as a JsonElement; IllegalArgumentException when JSON cannot carry it. */
  /** Deeper than this a value is refused: JSON this deep is a mistake, or a value holding itself. */
  static final int MAX_DEPTH = 10000;

  static JsonElement toJson(Object v) {
    return toJson(v, 0);
  }

  private static void deep(int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "a value nested deeper than " + MAX_DEPTH + " levels (or one that holds itself)");
    }
  }

  private static JsonElement toJson(Object v, int depth) {
    deep(depth);
    if (v == null) return JsonNull.INSTANCE;
    if (v instanceof JsonElement) {
      checkJson((JsonElement) v, depth);
      return (JsonElement) v;
    }
    if (v instanceof String) {
      checkString((String) v);
      return new JsonPrimitive((String) v);
    }
    if (v instanceof Boolean) return new JsonPrimitive((Boolean) v);
    if (v instanceof Number) {
      JsonPrimitive p = new JsonPrimitive((Number) v);
      checkJson(p, depth);
      return p;
    }
    if (v instanceof Map) {
      JsonObject o = new JsonObject();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException("a key that is not a String has no JSON form");
        }
        checkString((String) e.getKey());
        o.add((String) e.getKey(), toJson(e.getValue(), depth + 1));
      }
      return o;
    }
    if (v instanceof List) {
      JsonArray a = new JsonArray();
      for (Object x : (List<?>) v) a.add(toJson(x, depth + 1));
      return a;
    }
    throw new IllegalArgumentException("a " + v.getClass().getName() + " has no JSON form");
  }

  static void checkJson(JsonElement e, int depth) {
    deep(depth);
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
        checkString(m.getKey());
        checkJson(m.getValue(), depth + 1);
      }
    } else if (e.isJsonArray()) {
      for (JsonElement x : e.getAsJsonArray()) checkJson(x, depth + 1);
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
