pub mod validate;
