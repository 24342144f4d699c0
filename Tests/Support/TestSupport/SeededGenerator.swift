public import SeededRandom

/// The deterministic generator randomized tests use, so a run can be replayed from its seed:
/// the one the examples' fixtures use too (see `SeededRandom`).
public typealias SeededGenerator = SeededRandom.SeededGenerator
