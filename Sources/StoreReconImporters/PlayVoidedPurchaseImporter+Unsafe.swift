// Safety: `line` points into the read's chunk and is valid during `pack` only; the full parser copies
// everything the record keeps.

import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

// The batch import's line packer: each line a buffer into the read's chunk, valid during the call.
extension PlayVoidedPurchaseImporter {
  /// Packs lines through the full parser.
  package struct Packer: JSONLinePacker {
    let window: StoreTimeWindow

    /// A packer reading times within `window`.
    package init(settings window: StoreTimeWindow) { self.window = window }

    /// A packer on its own (tests): times within ``StoreTimeWindow/standalone``.
    package init() { self.init(settings: .standalone) }

    package mutating func pack(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch)
      throws(RowRejection)
    {
      batch.add(
        try PlayVoidedPurchaseImporter.transaction(
          from: try JSONLinesImport.parse(line), origin: Origin(file: -1, line: 0), window: window))
    }
  }
}
