# Sourced by the scripts that run the strokekit CLI on data it does not own (benchmarks and
# checks): which binary they run, and the fa-diagrams dataset they read.

# strokekit_cli NAME [CONFIGURATION]: sets $strokekit to $STROKEKIT when set (a binary already
# built), else builds the CONFIGURATION (release unless given) CLI now and uses it.
strokekit_cli() {
    local configuration=${2:-release}
    if [ -n "${STROKEKIT:-}" ]; then
        strokekit=$STROKEKIT
    else
        echo "$1: building the $configuration CLI" >&2
        swift build -c "$configuration" --product strokekit >&2
        strokekit=".build/$configuration/strokekit"
    fi
}

# fa_diagrams NAME FOLDER...: sets $data to ../shared/datasets/fa-diagrams; when one of the
# FOLDERs is missing there, says NAME is skipped and exits 0 (evaluation data is never in the
# repository).
fa_diagrams() {
    local name=$1 folder
    shift
    data=../shared/datasets/fa-diagrams
    for folder in "$@"; do
        if [ ! -d "$data/$folder" ]; then
            echo "$name: skipped, $data is absent (see docs/benchmarks.md)" >&2
            exit 0
        fi
    done
}
