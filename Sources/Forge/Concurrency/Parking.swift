// Forge: where threads wait for a change that another thread makes under a lock.
internal import CForge

/// The one place in the process where threads wait: for a value another thread is making, or for
/// `registerAllServices()`.
///
/// A waiter takes a ticket while it holds the lock under which it saw that it must wait, releases that lock,
/// and parks with the ticket. A waker changes the state under the lock, releases it, then wakes every parked
/// thread; each one looks again. A wake-up after the ticket was taken is never missed. Waits are rare (two
/// threads making the same instance at once), so one word serves everything.
@usableFromInline
enum Parking {
    static func ticket() -> UInt32 { forge_park_ticket() }
    /// Returns once ``wakeAll()`` was called after `ticket` was taken, or earlier: look again.
    @usableFromInline static func wait(_ ticket: UInt32) { forge_park_wait(ticket) }
    @usableFromInline static func wakeAll() { forge_park_wake_all() }
}
