# boardc.bbclass: compile board descriptions (CUE) with boardc as a task of
# the recipe that inherits this class, before do_compile, so that the
# generated device-tree fragment, kernel C snippets and runtime tuning are
# in ${BOARDC_OUTDIR}/<board>/ when the recipe compiles or installs them.
#
#   inherit boardc
#   BOARDC_BOARDS = "boards/espressobin"
#
# boardc checks the descriptions first: when one has errors the task fails
# with positioned diagnostics (file:line:col: error: ... [CODE]) and
# nothing is written. Outputs are rewritten only when their content
# changes.

# Board directories (or .cue files) to compile, relative to
# ${BOARDC_SRCDIR}, separated by spaces. A trailing "/..." takes every
# board below a directory. Required.
BOARDC_BOARDS ?= ""

# Directory the board paths are relative to: the CUE module holding the
# descriptions is found from there (its cue.mod/).
BOARDC_SRCDIR ?= "${S}"

# Output directory: each board's files go to ${BOARDC_OUTDIR}/<board>/,
# where <board> is the board's `name`.
BOARDC_OUTDIR ?= "${B}/boardc"

# Make-syntax dependency file: every output depends on every CUE file
# loaded. BitBake does not read it; it is there for a make-based step of
# the recipe (kbuild, a Makefile in ${S}) and for debugging which inputs
# a build used.
BOARDC_DEPFILE ?= "${BOARDC_OUTDIR}/boardc.d"

# Extra options of `boardc build`, e.g. "-q" to hide info diagnostics.
# Warnings fail the build by default; set to "" to allow them.
BOARDC_EXTRA_ARGS ?= "--werror"

DEPENDS:append = " boardc-native"

# Re-run the task whenever a CUE file under the source directory changes,
# also for sources BitBake does not fetch itself (externalsrc, devtool).
def boardc_cue_checksums(d):
    import glob
    src = d.getVar('BOARDC_SRCDIR')
    return ' '.join('%s:True' % f for f in sorted(glob.glob(src + '/**/*.cue', recursive=True)))

do_boardc[file-checksums] += "${@boardc_cue_checksums(d)}"
do_boardc[vardeps] += "BOARDC_BOARDS BOARDC_EXTRA_ARGS"
do_boardc[dirs] = "${BOARDC_SRCDIR}"
do_boardc[cleandirs] = "${BOARDC_OUTDIR}"
do_boardc[doc] = "Checks the board descriptions in BOARDC_BOARDS and writes their outputs to BOARDC_OUTDIR"

boardc_do_boardc() {
	if [ -z "${BOARDC_BOARDS}" ]; then
		bbfatal "boardc: BOARDC_BOARDS is empty; set it to the board directories to compile"
	fi
	boardc build ${BOARDC_EXTRA_ARGS} -o "${BOARDC_OUTDIR}" \
		--depfile "${BOARDC_DEPFILE}" ${BOARDC_BOARDS}
}

addtask boardc after do_configure before do_compile

EXPORT_FUNCTIONS do_boardc
