/// An error that blames what the user gave (an option, a file, a calibration, the data) rather
/// than the run: a command that fails with one exits 2, not 1 — also when it can only tell at a
/// later frame (a start box outside the first image, a frame that does not decode).
public protocol BadInput: Error {}
