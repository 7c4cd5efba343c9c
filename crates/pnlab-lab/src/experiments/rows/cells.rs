//! One row of a table as typed cells: a serde serializer that takes a row
//! struct apart into `(column, value)` pairs. It says it is not
//! human-readable, so the text forms of [`super::text`] give their numbers
//! here and their words only to the CSV writer.

use serde::ser::{self, Impossible, Serialize};

/// One cell of a row, with the type its field has.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// No value (an `Option` that is `None`; an empty CSV cell).
    Missing,
    /// An integer.
    Int(i64),
    /// A real number (`inf` and `NaN` included).
    Real(f64),
    /// A yes/no value.
    Bool(bool),
    /// A word or any other text.
    Text(String),
}

/// Why a value cannot be a row of cells (a row is a struct of single
/// values; a field that is itself a list or a struct is refused).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a table row: {0}")]
pub struct RowError(pub String);

impl ser::Error for RowError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        RowError(msg.to_string())
    }
}

/// The `(column, cell)` pairs of `row`, in field order.
pub fn cells_of<R: Serialize>(row: &R) -> Result<Vec<(&'static str, Cell)>, RowError> {
    row.serialize(RowSer)
}

fn not_a_cell<T>(what: &str) -> Result<T, RowError> {
    Err(RowError(format!(
        "a cell holds one value, not {what} (give such a field a text form)"
    )))
}

/// Serializes one field's value into a [`Cell`].
struct CellSer;

macro_rules! int_cells {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Result<Cell, RowError> {
            i64::try_from(v)
                .map(Cell::Int)
                .map_err(|_| RowError(format!("{v} does not fit a 64-bit integer cell")))
        }
    )*};
}

/// The forms that hold several values (lists, tuples, maps, enum variants
/// with data), which neither a row nor a cell is: their serializer types
/// are `Impossible`, and each method refuses its value with `$refuse`,
/// given `$what`, the form's name ("a list").
macro_rules! refuse_compounds {
    (@each |$what:ident| $refuse:expr;
        $($f:ident($($arg:ty),*) -> $assoc:ident: $name:literal),* $(,)?) => {$(
        fn $f(self, $(_: $arg),*) -> Result<Self::$assoc, RowError> {
            let $what = $name;
            $refuse
        }
    )*};
    ($ok:ty, |$what:ident| $refuse:expr) => {
        type SerializeSeq = Impossible<$ok, RowError>;
        type SerializeTuple = Impossible<$ok, RowError>;
        type SerializeTupleStruct = Impossible<$ok, RowError>;
        type SerializeTupleVariant = Impossible<$ok, RowError>;
        type SerializeMap = Impossible<$ok, RowError>;
        type SerializeStructVariant = Impossible<$ok, RowError>;

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<$ok, RowError> {
            let $what = "an enum variant with data";
            $refuse
        }
        refuse_compounds!(@each |$what| $refuse;
            serialize_seq(Option<usize>) -> SerializeSeq: "a list",
            serialize_tuple(usize) -> SerializeTuple: "a tuple",
            serialize_tuple_struct(&'static str, usize) -> SerializeTupleStruct: "a tuple",
            serialize_tuple_variant(&'static str, u32, &'static str, usize)
                -> SerializeTupleVariant: "an enum variant with data",
            serialize_map(Option<usize>) -> SerializeMap: "a map",
            serialize_struct_variant(&'static str, u32, &'static str, usize)
                -> SerializeStructVariant: "an enum variant with data",
        );
    };
}

/// Serializer methods of one argument that all refuse their value with
/// `$refuse` (the row serializer takes nothing but a struct).
macro_rules! refuse_values {
    ($ok:ty, $refuse:expr; $($f:ident: $t:ty),* $(,)?) => {$(
        fn $f(self, _: $t) -> Result<$ok, RowError> {
            $refuse
        }
    )*};
}

impl ser::Serializer for CellSer {
    type Ok = Cell;
    type Error = RowError;
    type SerializeStruct = Impossible<Cell, RowError>;
    refuse_compounds!(Cell, |what| not_a_cell(what));

    fn is_human_readable(&self) -> bool {
        false
    }

    int_cells!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);

    fn serialize_bool(self, v: bool) -> Result<Cell, RowError> {
        Ok(Cell::Bool(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Cell, RowError> {
        Ok(Cell::Real(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Cell, RowError> {
        Ok(Cell::Real(v))
    }
    fn serialize_char(self, v: char) -> Result<Cell, RowError> {
        Ok(Cell::Text(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Cell, RowError> {
        Ok(Cell::Text(v.to_string()))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Cell, RowError> {
        not_a_cell("bytes")
    }
    fn serialize_none(self) -> Result<Cell, RowError> {
        Ok(Cell::Missing)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Cell, RowError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Cell, RowError> {
        Ok(Cell::Missing)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Cell, RowError> {
        Ok(Cell::Missing)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Cell, RowError> {
        Ok(Cell::Text(variant.to_string()))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Cell, RowError> {
        v.serialize(self)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, RowError> {
        not_a_cell("a struct")
    }
}

/// Serializes a row struct into its `(column, cell)` pairs.
struct RowSer;

/// The fields gathered so far.
struct Fields(Vec<(&'static str, Cell)>);

impl ser::SerializeStruct for Fields {
    type Ok = Vec<(&'static str, Cell)>;
    type Error = RowError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), RowError> {
        self.0.push((key, v.serialize(CellSer)?));
        Ok(())
    }

    fn end(self) -> Result<Self::Ok, RowError> {
        Ok(self.0)
    }
}

type Row = Vec<(&'static str, Cell)>;

fn not_a_row<T>() -> Result<T, RowError> {
    Err(RowError(
        "a row is a struct with one field per column".into(),
    ))
}

impl ser::Serializer for RowSer {
    type Ok = Row;
    type Error = RowError;
    type SerializeStruct = Fields;
    refuse_compounds!(Row, |_what| not_a_row());

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Fields, RowError> {
        Ok(Fields(Vec::with_capacity(len)))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Row, RowError> {
        v.serialize(self)
    }
    refuse_values!(Row, not_a_row(); serialize_bool: bool,
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_f32: f32, serialize_f64: f64, serialize_char: char, serialize_str: &str,
        serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_none(self) -> Result<Row, RowError> {
        not_a_row()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Row, RowError> {
        not_a_row()
    }
    fn serialize_unit(self) -> Result<Row, RowError> {
        not_a_row()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<Row, RowError> {
        not_a_row()
    }
}
