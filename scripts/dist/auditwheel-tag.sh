# auditwheel_tag AUDITWHEEL WHEEL: the platform tag auditwheel computes for WHEEL (the overall
# one: "... is consistent with the following platform tag: ...", which already takes every
# "This constrains the platform tag to ..." line into account; a wheel at the baseline has
# no such line). Empty when auditwheel computes none. Sourced by scripts/dist/build.sh, which names
# its wheels by it, and scripts/dist/check.sh, which checks the names.
auditwheel_tag() {
  "$1" show "$2" 2>/dev/null | tr '\n' ' ' |
    sed -nE 's/.*consistent with the +following platform tag: +"([^"]+)".*/\1/p'
}
