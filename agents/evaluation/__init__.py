"""Evaluation: schedules of seats and deck seeds, lock-step play, ratings, results files,
backends (local processes, Ray), tournaments and their reports."""
