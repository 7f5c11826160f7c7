# a file named by an absolute path was read and quoted in the report
# run: tabula check ruleset
# exit: 1
# stderr: tabula::path_outside
# stderr: is outside the ruleset
# absent: root:
