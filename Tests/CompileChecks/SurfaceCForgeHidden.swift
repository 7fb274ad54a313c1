// swift-version: 6
// expect-diagnostic: cannot find 'forge_lock_init' in scope
// Forge imports CForge publicly, for the lock operations its inlinable code calls, and re-exports nothing: a client
// that imports Forge does not see CForge's C functions.
import Forge

var word: UInt32 = 0
forge_lock_init(&word)
