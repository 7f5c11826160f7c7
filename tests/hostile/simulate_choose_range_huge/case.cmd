# a choice over 1..=most with most a billion, known only while playing, a rules error, not 16 GB
# run: tabula simulate ruleset --games 1
# exit: 1
# stderr: a decision of 1,000,000,000 options
