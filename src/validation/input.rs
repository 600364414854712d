//! Validation core, step 0: reading a call's arguments. A caller controls how much
//! it sends, so the body is read through a bounded reader: at most
//! [`MAX_BODY_BYTES`] plus one byte, after which reading stops and the body is
//! refused. The buffer never grows past that, so peak memory is the cap whatever
//! the caller sends (an endless stream, `/dev/zero`).

use std::io::{ErrorKind, Read};

/// The largest arguments document accepted: the request-body cap of the motivating
/// ADR, `3 * MAX_SOURCE_FILE_BYTES + 1 MiB` with 8 MiB source files (26,214,400 bytes).
pub const MAX_BODY_BYTES: usize = 3 * 8 * 1024 * 1024 + 1024 * 1024;

/// A body as read: whole, or cut off at the cap (what was read is dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Within(Vec<u8>),
    /// More than `cap` bytes were offered; reading stopped at `cap + 1`.
    Over {
        cap: usize,
    },
}

/// Reads `reader` to its end or to `cap + 1` bytes, whichever comes first.
pub fn read_bounded(reader: &mut dyn Read, cap: usize) -> std::io::Result<Body> {
    let limit = cap.saturating_add(1);
    let mut buffer: Vec<u8> = Vec::new();
    let mut filled = 0usize;
    loop {
        if filled == buffer.len() {
            if filled == limit {
                return Ok(Body::Over { cap });
            }
            // Doubling, but never past the limit, and exactly: `resize` alone would
            // round the capacity up to the next doubling, past the cap.
            let grown = filled.saturating_mul(2).max(8 * 1024).min(limit);
            buffer.reserve_exact(grown - buffer.len());
            buffer.resize(grown, 0);
        }
        let Some(free) = buffer.get_mut(filled..) else {
            return Ok(Body::Over { cap });
        };
        match reader.read(free) {
            Ok(0) => {
                buffer.truncate(filled);
                return Ok(Body::Within(buffer));
            }
            Ok(read) => filled += read,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Endless bytes, counting how many were asked for.
    struct Endless {
        served: usize,
    }

    impl Read for Endless {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            out.fill(b' ');
            self.served += out.len();
            Ok(out.len())
        }
    }

    fn read(reader: &mut dyn Read, cap: usize) -> Body {
        match read_bounded(reader, cap) {
            Ok(body) => body,
            Err(error) => panic!("reading failed: {error}"),
        }
    }

    #[test]
    fn a_body_within_the_cap_is_read_whole() {
        assert_eq!(read(&mut &b"{}"[..], 2), Body::Within(b"{}".to_vec()));
        assert_eq!(read(&mut &b""[..], 0), Body::Within(Vec::new()));
    }

    #[test]
    fn a_body_one_byte_over_is_refused() {
        assert_eq!(read(&mut &b"{ }"[..], 2), Body::Over { cap: 2 });
    }

    #[test]
    fn an_endless_reader_is_read_only_to_the_cap_plus_one_byte() {
        let mut endless = Endless { served: 0 };
        assert_eq!(read(&mut endless, 100_000), Body::Over { cap: 100_000 });
        assert_eq!(endless.served, 100_001);
    }
}
