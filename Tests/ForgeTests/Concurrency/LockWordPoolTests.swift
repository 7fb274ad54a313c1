// The pool of lock words that factory boxes take their locks from.
import Testing

@testable import Forge

@Suite struct LockWordPoolTests {
    @Test("Each pair of lock words has a cache line of its own, starts unlocked and summarizes nothing")
    func pairsAreSeparateAndFresh() {
        let pool = LockWordPool()
        let pairs = (0..<200).map { _ in pool.take() }  // more than one slab
        let addresses = pairs.map { UInt(bitPattern: $0) }
        #expect(Set(addresses).count == pairs.count)
        #expect(addresses.allSatisfy { $0 % 64 == 0 })
        let lines = Set(addresses.map { $0 / 64 })
        #expect(lines.count == pairs.count, "two pairs share a cache line")
        for pair in pairs {
            #expect(LockWord.load(pair + 1) == 0 && LockWord.load(pair + 2) == 0)
            LockWord.lock(pair)  // would wait forever on a lock that was not initialized unlocked
            LockWord.unlock(pair)
        }
        pairs.forEach(pool.giveBack)
    }

    @Test("A pair given back is handed out again, unlocked and with its summary and third word cleared")
    func pairsAreReused() {
        let pool = LockWordPool()
        let pair = pool.take()
        LockWord.store(7, to: pair + 1)
        LockWord.store(1, to: pair + 2)  // a dead factory's: a new box at its address was never a dependency
        pool.giveBack(pair)
        let again = pool.take()
        #expect(again == pair)
        #expect(LockWord.load(again + 1) == 0)
        #expect(LockWord.load(again + 2) == 0)
        LockWord.lock(again)
        LockWord.unlock(again)
        pool.giveBack(again)
    }

    @Test("Slots that die give their lock words back to the pool")
    func deadSlotsGiveTheirWordsBack() {
        // Each isolated world makes a slot, a box, for the factory, and lets go of it when it ends. Without the
        // give-back, every round would take a new pair from the shared pool.
        let factory = Factory(scope: .cached) { 42 }
        var seen = Set<UInt>()
        for _ in 0..<2_000 {
            Container.Registrations.isolated {
                #expect(factory() == 42)
            }
            let probe = LockWordPool.shared.take()
            seen.insert(UInt(bitPattern: probe))
            LockWordPool.shared.giveBack(probe)
        }
        // Other tests take and give back pairs meanwhile, so the probe may differ from round to round; but with
        // slots leaking their pairs it would be new in every round.
        #expect(seen.count < 1_000, "\(seen.count) different pairs in 2,000 rounds")
    }
}
