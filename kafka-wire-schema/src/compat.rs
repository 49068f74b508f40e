//! Whether a newer schema keeps an older one's bytes, version by version.
