//! A global allocator that counts what each thread allocates, for tests that make
//! claims about memory: hostile lengths cost nothing, short arrays are held in place.
//!
//! `GlobalAlloc` is an unsafe trait, hence the only unsafe code in the workspace: the
//! test crates do not inherit the workspace's `forbid(unsafe_code)`. Each method
//! forwards to `System` with the caller's own arguments, so it upholds exactly the
//! contract `System` does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// What one thread allocated: bytes, and the number of allocations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocated {
    /// Bytes requested (a reallocation counts its whole new size: an upper bound).
    pub bytes: usize,
    /// Allocations and reallocations made.
    pub calls: usize,
}

struct CountingAllocator;

thread_local! {
    // Per thread, so tests running in parallel do not see each other's allocations;
    // `const` initialisation: reading it never allocates, which an allocator needs.
    static ALLOCATED: Cell<Allocated> = const { Cell::new(Allocated { bytes: 0, calls: 0 }) };
}

fn count(bytes: usize) {
    // `try_with`: during thread teardown the slot may be gone; such allocations are
    // not inside a measured call anyway.
    let _ = ALLOCATED.try_with(|total| {
        let so_far = total.get();
        total.set(Allocated {
            bytes: so_far.bytes + bytes,
            calls: so_far.calls + 1,
        });
    });
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: forwarded unchanged; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs `f` and returns its result with what this thread allocated meanwhile.
pub fn allocated_during<R>(f: impl FnOnce() -> R) -> (R, Allocated) {
    ALLOCATED.with(|total| total.set(Allocated::default()));
    let result = f();
    (result, ALLOCATED.with(Cell::get))
}
