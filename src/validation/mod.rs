//! The shared validation core (pending).
