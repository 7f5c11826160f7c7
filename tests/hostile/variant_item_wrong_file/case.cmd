# a mistake in an item a variant adds was shown at a line of the base data file
# run: tabula check ruleset --variant more
# exit: 1
# stderr: tabula::bad_value
# stderr: expected a number, found `oops`
# at: ruleset/variants/more-data.yaml:4:22
