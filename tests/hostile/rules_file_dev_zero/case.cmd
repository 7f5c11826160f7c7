# a link to /dev/zero grew the memory without bound
# run: tabula check ruleset
# exit: 1
# stderr: tabula::path_outside
# timeout: 10
# link: ruleset/zero.yaml -> /dev/zero
