//! `dspcc --help`: the flags the driver takes, grouped as clang groups them.

/// The usage text for `--help`.
pub const HELP: &str = "\
OVERVIEW: dspcc, the C compiler driver for .isa-described VLIW DSPs

USAGE: dspcc [options] file...

OPTIONS:
  --isa=NAME|FILE     target machine: a shipped name (ftm, ftm8, ftm32) or a .isa file (default ftm)
  -E                  preprocess only      -S  compile to assembly      -c  compile and assemble
  -o FILE             output file          -emit-llvm  LLVM IR (.ll with -S, .bc with -c)
  -O0 -O1 -O2 -O3 -Os -Oz                  optimization level
  -g                  debug information (FILE:LINE in backend diagnostics)
  -I DIR -D NAME[=V] -U NAME -include FILE -std=STD -W… -w -f…   passed to clang
  -MD -MMD -MF FILE -MT TARGET -MQ TARGET -MP -M -MM              dependency files
  -l NAME -L DIR -Wl,ARGS -nostdlib -nostartfiles -nodefaultlibs   linking (always static; -lpthread -ldl
                      -lrt are the C library itself; -shared is an error; -pie -fPIC -m32 are accepted)
  -ffunction-sections -fdata-sections      a section per function/object (for -Wl,--gc-sections)
  -dumpmachine -dumpversion -print-search-dirs -print-file-name=NAME -print-prog-name=NAME
  -print-cmake-toolchain                   the CMake toolchain file (CMAKE_CROSSCOMPILING_EMULATOR: dsp-sim)
  -x LANG             c, cpp-output, ir, assembler, none
  -mllvm ARG          passed to LLVM inside clang
  -fmodulo-sched -fno-modulo-sched         software pipelining of innermost loops on/off (on from -O2)
  -fmodulo-sched-all-loops -fno-modulo-sched-all-loops
                                           also pipeline loops within 10% of gaining nothing (off: they
                                           are left to the block scheduler, with a remark)
  -fmodulo-sched-rebase -fno-modulo-sched-rebase
                                           a pipelined load or store reads the address of a later
                                           iteration, its offset moved back, where the schedule allows:
                                           addresses live shorter, fewer kernel copies (on)
  -fmasked-tail -fno-masked-tail           vectorized loops end in a masked iteration instead of a scalar loop (on from -O2)
  -fouter-loop-vectorize -fno-outer-loop-vectorize
                                           outer loops of nests whose iterations are independent run lanes
                                           iterations side by side, inner loops in order per lane (on from -O2;
                                           -fno-vectorize turns it off too; remarks: -Rpass=outer-vec)
  -funroll-and-jam -fno-unroll-and-jam     the loop around a reduction nest runs 2 or 4 iterations side by side
                                           (independent chains in the inner loop; on with outer-loop
                                           vectorization; remarks: -Rpass=unroll-jam)
  -floop-interchange -fno-loop-interchange a loop holding a short inner loop is interchanged with it when, at run
                                           time, that one is shorter than a vector and the outer iterations are
                                           independent (an FFT's early stages; on with -fegg-isel; remarks:
                                           -Rpass=loop-interchange)
  -floop-strip-mine -fno-loop-strip-mine   a loop holding a short inner loop (at most 8 vectors long, every
                                           access contiguous) runs, when at run time the outer iterations are
                                           independent, as strips of one vector around the outer loop, each strip
                                           one masked vector step (a 2D convolution's rows; on with -fegg-isel;
                                           remarks: -Rpass=loop-interchange)
  -floop-flatten -fno-loop-flatten         a two-deep nest whose iterations are all independent (the interchanged and
                                           strip-mined nests above) flattened into one loop after vectorization, one
                                           software pipeline instead of one per outer iteration (an FFT's stages; on
                                           with -fegg-isel; remarks: -Rpass=loop-flatten)
  -freverse-carry -fno-reverse-carry       a bit-reversed counter's carry loop (an FFT's bit reversal: for (; j & bit;
                                           bit >>= 1) j ^= bit) in closed form with a count of leading zeros, the
                                           loop around it versioned on a power-of-two bit, so that it can be
                                           if-converted and pipelined (on from -O2; remarks: -Rpass=reverse-carry)
  -fvectorize-bitrev -fno-vectorize-bitrev the swaps of a bit-reversal permutation (that loop: if (i < j) swap x[i]
                                           and x[j], j the bit-reversed i) on the vector unit, gathers and
                                           scatters under a mask (on from -O2; -fno-vectorize turns it off too;
                                           remarks: -Rpass=bitrev-vec)
  -fpolyhedral -fno-polyhedral             PLuTo's polyhedral scheduling and tiling of affine loop nests (SCoPs),
                                           regenerated with exact bounds (on at -O3; remarks:
                                           -Rpass=pluto, -Rpass-missed=pluto, -Rpass-analysis=pluto)
  -fpolyhedral-interchange -fno-polyhedral-interchange
                                           when PLuTo's schedule is not worth it, an interchange-only schedule
                                           (the best innermost loop for the vectorizers; on with -fpolyhedral)
  -ftile-size-feedback -fno-tile-size-feedback
                                           tile sizes refined by the machine model's cost until it converges
                                           (seed 004's Algorithm 1; on with -fpolyhedral)
  --tile-sizes=N,N,...                     its tile sizes, one per tiled loop, outermost first (default: seed 004's
                                           reuse model within the L1D, the innermost loop whole, refined by cost)
  --polyhedral-report=FILE.json            what it did with every SCoP and rejected loop nest, as JSON
  -fvector-fdiv -fno-vector-fdiv           vector float division and square root computed on the vector units
                                           (Newton-Raphson, exactly rounded) when the divider is scalar only
                                           (default; remarks: -Rpass=vector-fdiv)
  -fpredictive-commoning                   loads that read what an earlier iteration of the loop loaded kept in
  -fno-predictive-commoning                registers instead (stencils: a 3x3 convolution's rows, integer sums of their
                                           products carried; default from -O2; remarks: -Rpass=predcom)
  -fvec-function -fno-vec-function         vectorization directives (#pragma simd, #pragma omp declare simd/simd)
                                           honoured (default) or ignored
  -fvec-function=auto                      also vectorize calls in loops to functions proven safe without directives
  -fvec-function-opt=naive|mem|all         the function vectorizer's analyses and optimizations (seed 001's
                                           configurations): none, uniform/consecutive/aligned attributes, or
                                           those plus kept uniform branches and branches on superword conditions
                                           (default all; remarks: -Rpass=wfv)
  -fvec-function-boscc -fno-vec-function-boscc
                                           those branches on superword conditions on (default) or off
  -fvec-function-multiversion -fno-vec-function-multiversion
                                           behind them, a scalar version of the block for one active lane
                                           (instance multiversioning) on (default) or off
  -fegg-isel -fno-egg-isel                 innermost loops vectorized by equality saturation over the machine's
                                           rules and costs, before LLVM's loop vectorizer takes the rest (seed 004;
                                           on from -O2; -fno-vectorize turns it off too; remarks: -Rpass=egg)
  --egg-limits=NODES,ITERATIONS,MS         its saturation limits (default 200000,100,1000)
  -fegg-cooperation -fno-egg-cooperation   its scalar-vector cooperation rules (broadcasts, scalar operands,
                                           reductions) on (default) or off
  -fvec-function-restructure -fno-vec-function-restructure
                                           instances of a vec-function loop regrouped by their callee's
                                           entry branch (instance restructuring) on (default) or off
  --modulo-scheduler=sms|ims|ilp           its scheduler (default sms)
  -floop-strength-reduce -fno-loop-strength-reduce
                                           LLVM's loop strength reduction before selection (on from -O1)
  -fmove-loop-invariants -fno-move-loop-invariants
                                           loop-invariant code motion, value numbering and dead-code
                                           elimination on the machine IR (on from -O1)
  -fbranch-target-fill -fno-branch-target-fill
                                           branch delay slots left as nops take the target's first
                                           bundles (on from -O1)
  -fbranch-fallthrough-fill -fno-branch-fallthrough-fill
                                           a conditional branch's delay slots left as nops take the first
                                           bundles of the block it falls through to, when nothing else
                                           enters that block (on from -O1)
  -freload-cse -fno-reload-cse             a reload of a spilled value into a register that still holds it
                                           (reloaded or stored in the block or the block before) is deleted
                                           (on from -O1)
  -fsplit-around-pipelines -fno-split-around-pipelines
                                           a spilled value that only passes through a software-pipelined
                                           loop is split around it: stored before, reloaded after, in a
                                           register in the code around it (on from -O1)
  -fbranch-on-register -fno-branch-on-register
                                           a branch on x != 0 / x == 0 tests x itself (brnz/brz) when
                                           the machine has it (on from -O1)
  --ilp-time-limit=SECONDS                 time per loop for the ilp scheduler
  -Rpass=REGEX -Rpass-missed=REGEX -Rpass-analysis=REGEX
                      optimization remarks of clang's passes and of the pipeliner ('sms')
  --pipeline-report=FILE.json              one JSON record per innermost loop
  -v                  print each command before running it
  -###                print the commands without running them
  -save-temps         keep intermediate files (.bc, .s) in the current directory
  --version           print the version

Inputs: .c .i .ll .bc .s .o .a
";
