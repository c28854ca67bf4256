//! JSON text of our own documents, compact or pretty (two-space indents, as serde_json's
//! `to_string_pretty`), from one serializer type: a scenario written both ways (a share link
//! compact, an export pretty) then carries one copy of its serializing code in the dashboard's
//! WebAssembly instead of one per formatter.

use std::io::Write;

use serde::Serialize;
use serde_json::ser::Formatter;

/// serde_json's compact output, or its pretty output when `pretty`.
struct Either {
    pretty: bool,
    depth: usize,
    has_value: bool,
}

impl Either {
    fn indent<W: ?Sized + Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.pretty && self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.pretty {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        Ok(())
    }
}

impl Formatter for Either {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.pretty { b": " } else { b":" })
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as JSON text: compact, or pretty as `serde_json::to_string_pretty` writes it.
pub fn to_text<T: Serialize + ?Sized>(value: &T, pretty: bool) -> String {
    let mut out = Vec::with_capacity(256);
    let formatter = Either {
        pretty,
        depth: 0,
        has_value: false,
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    // serde_json writes valid UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn writes_what_serde_json_writes() {
        let v = serde_json::json!({"a": [1, {"b": [], "c": {}}, "x"], "d": {"e": null}, "f": []});
        assert_eq!(to_text(&v, false), serde_json::to_string(&v).unwrap());
        assert_eq!(to_text(&v, true), serde_json::to_string_pretty(&v).unwrap());
    }
}
