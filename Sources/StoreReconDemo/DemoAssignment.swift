import StoreReconCore

/// One row the demo writes to `app/assignments.csv`: a user entered an arm of a price experiment.
struct DemoAssignment {
  var userId: String
  var experimentId: String
  var armId: String
  var assignedAt: Instant
}
