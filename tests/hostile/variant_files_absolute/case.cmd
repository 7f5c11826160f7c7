# a variant's `files` naming an absolute path
# run: tabula check ruleset --variant v
# exit: 1
# stderr: tabula::path_outside
# stderr: is outside the ruleset
# absent: root:
