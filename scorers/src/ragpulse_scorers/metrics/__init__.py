"""Pure metric computations (no judge, no store): coverage metrics, ranking metrics, Elo."""
