# a loop of links was reported as a missing file
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unreadable_file
# stderr: a link that cannot be followed (a loop of links)
# link: ruleset/loop1.yaml -> loop2.yaml
# link: ruleset/loop2.yaml -> loop1.yaml
