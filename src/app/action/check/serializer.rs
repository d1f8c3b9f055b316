//! The walker as a serde `Serializer`: it writes nothing, it visits every value with the
//! name of the field or variant that holds it (see the parent module).

use super::{Stop, Walker};
use serde::ser::{self, Serialize};

type Done = Result<(), Stop>;

macro_rules! ignore {
    ($($f:ident: $t:ty),*) => {$(fn $f(self, _: $t) -> Done { Ok(()) })*};
}

macro_rules! count {
    ($($f:ident: $t:ty),*) => {$(fn $f(self, v: $t) -> Done { self.count(v as u64) })*};
}

impl ser::Serializer for &mut Walker {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    ignore!(serialize_bool: bool, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8]);
    ignore!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64);
    ignore!(serialize_unit_struct: &'static str);
    count!(serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);

    fn serialize_f32(self, v: f32) -> Done {
        self.real(v as f64)
    }
    fn serialize_f64(self, v: f64) -> Done {
        self.real(v)
    }
    fn serialize_none(self) -> Done {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Done {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Done {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Done {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Done {
        self.enter(variant, v)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Stop> {
        self.list(len)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Stop> {
        self.path.push(variant);
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Stop> {
        self.list(len)?;
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Stop> {
        self.path.push(variant);
        Ok(self)
    }
}

macro_rules! elements {
    ($($tr:ident :: $f:ident),*) => {$(
        impl<'a> ser::$tr for &'a mut Walker {
            type Ok = ();
            type Error = Stop;
            fn $f<T: ?Sized + Serialize>(&mut self, v: &T) -> Done {
                v.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

elements!(SerializeSeq::serialize_element, SerializeTuple::serialize_element, SerializeTupleStruct::serialize_field);

impl ser::SerializeTupleVariant for &mut Walker {
    type Ok = ();
    type Error = Stop;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Done {
        v.serialize(&mut **self)
    }
    fn end(self) -> Done {
        self.path.pop();
        Ok(())
    }
}

impl ser::SerializeMap for &mut Walker {
    type Ok = ();
    type Error = Stop;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Done {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Done {
        v.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Walker {
    type Ok = ();
    type Error = Stop;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Done {
        self.enter(key, v)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Walker {
    type Ok = ();
    type Error = Stop;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Done {
        self.enter(key, v)
    }
    fn end(self) -> Done {
        self.path.pop();
        Ok(())
    }
}
