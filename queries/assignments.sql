-- The assignments contract (docs/contracts.md): users put in an arm of a price experiment.
-- Columns: user_id, experiment_id, arm_id, assigned_at.
SELECT user_id, experiment_id, arm_id, assigned_at
FROM assignments
ORDER BY user_id COLLATE "C", experiment_id COLLATE "C", assigned_at
