//! A global allocator that counts what each thread allocates, for tests that make
//! claims about memory: hostile lengths cost nothing, short arrays are held in place,
//! lying inputs fail before they cost more than a multiple of their size.
//!
//! `GlobalAlloc` is an unsafe trait, hence the only unsafe code in the workspace: the
//! test crates do not inherit the workspace's `forbid(unsafe_code)`. Each method
//! forwards to `System` with the caller's own arguments, so it upholds exactly the
//! contract `System` does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// What one thread allocated while measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocated {
    /// Bytes requested (a reallocation counts its whole new size: an upper bound).
    pub bytes: usize,
    /// Allocations and reallocations made.
    pub calls: usize,
    /// The most bytes held at once beyond what was held when measuring began.
    pub peak: usize,
    /// The bytes still held at the end beyond what was held when measuring began
    /// (negative when more was freed than allocated): what the result retains.
    pub live: isize,
}

#[derive(Clone, Copy)]
struct Counters {
    bytes: usize,
    calls: usize,
    /// Bytes held now, relative to the start (memory allocated earlier and freed
    /// meanwhile makes it negative).
    live: isize,
    peak: isize,
}

const ZERO: Counters = Counters {
    bytes: 0,
    calls: 0,
    live: 0,
    peak: 0,
};

struct CountingAllocator;

thread_local! {
    // Per thread, so tests running in parallel do not see each other's allocations;
    // `const` initialisation: reading it never allocates, which an allocator needs.
    static COUNTERS: Cell<Counters> = const { Cell::new(ZERO) };
}

fn count(requested: usize, grown: isize) {
    // `try_with`: during thread teardown the slot may be gone; such allocations are
    // not inside a measured call anyway.
    let _ = COUNTERS.try_with(|counters| {
        let mut c = counters.get();
        if requested > 0 {
            c.bytes += requested;
            c.calls += 1;
        }
        c.live += grown;
        c.peak = c.peak.max(c.live);
        counters.set(c);
    });
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), layout.size() as isize);
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), layout.size() as isize);
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -(layout.size() as isize));
        // SAFETY: forwarded unchanged; `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, new_size as isize - layout.size() as isize);
        // SAFETY: forwarded unchanged; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs `f` and returns its result with what this thread allocated meanwhile.
/// The result is dropped by the caller, after the measurement.
pub fn allocated_during<R>(f: impl FnOnce() -> R) -> (R, Allocated) {
    COUNTERS.with(|c| c.set(ZERO));
    let result = f();
    let c = COUNTERS.with(Cell::get);
    let allocated = Allocated {
        bytes: c.bytes,
        calls: c.calls,
        peak: c.peak.max(0) as usize,
        live: c.live,
    };
    (result, allocated)
}
