//! Malformed assembly: each case checks the exact diagnostics (file, line,
//! column and message), on the default machine `ftm`.

use dsp_mc::assemble;
use isa_tablegen::Machine;

fn errors(src: &str) -> Vec<String> {
    let m = Machine::load("ftm").expect("ftm");
    match assemble(&m, src, "bad.s") {
        Ok(_) => vec![],
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

fn check(src: &str, want: &[&str]) {
    assert_eq!(errors(src), want, "source:\n{src}");
}

#[test]
fn unknown_mnemonic_with_suggestion() {
    check("  ad r1, r2, r3\n", &["bad.s:1:3: error: unknown instruction 'ad'; did you mean 'add'?"]);
    check("\tADD r1, r2, r3\n", &["bad.s:1:2: error: unknown instruction 'ADD'; did you mean 'add'?"]);
    check("  frobnicate r1\n", &["bad.s:1:3: error: unknown instruction 'frobnicate'"]);
}

#[test]
fn wrong_operand_count() {
    check("  add r1, r2\n", &["bad.s:1:3: error: 'add' takes 3 operands (rd, ra, rb), got 2"]);
    check("  nop r1\n", &["bad.s:1:7: error: 'nop' takes 0 operands, got 1"]);
    check("  mov r1, r2, r3\n", &["bad.s:1:15: error: 'mov' takes 2 operands (rd, ra), got 3"]);
}

#[test]
fn register_of_wrong_file() {
    check("  add r1, v3, r2\n", &["bad.s:1:11: error: operand 2 of 'add' must be a register of file 'r', got 'v3'"]);
    check("  vadd v1, v2, 7\n", &["bad.s:1:16: error: operand 3 of 'vadd' must be a register of file 'v', got '7'"]);
}

#[test]
fn register_out_of_range() {
    check(
        "  add r1, r2, r40\n",
        &["bad.s:1:15: error: register 'r40' out of range: file 'r' has 32 registers (r0-r31)"],
    );
}

#[test]
fn immediate_out_of_range_and_register_as_immediate() {
    check(
        "  addi r1, r2, 5000000000\n  shli r1, r2, 32\n  trap -1\n",
        &[
            "bad.s:1:16: error: operand 3 of 'addi': value 5000000000 out of range [-2147483648, 2147483647]",
            "bad.s:2:16: error: operand 3 of 'shli': value 32 out of range [0, 31]",
            "bad.s:3:8: error: operand 1 of 'trap': value -1 out of range [0, 255]",
        ],
    );
    check(
        "  addi r1, r2, r3\n  li r1, 4 + r2\n",
        &[
            "bad.s:1:16: error: operand 3 of 'addi' must be an immediate, got register 'r3'",
            "bad.s:2:14: error: operand 2 of 'li' must be an immediate, got register 'r2'",
        ],
    );
}

#[test]
fn bundle_rules() {
    check(
        "  { add r1, r2, r3 ; add r1, r4, r5 }\n",
        &["bad.s:1:22: error: operations 1 and 2 both write r1 in the same cycle"],
    );
    check(
        "  { div r1, r2, r3 ; divu r4, r5, r6 }\n",
        &["bad.s:1:22: error: no free slot and unit for operation 2 'divu' (runs on sdiv): too many operations for its units"],
    );
    check(
        "  { add r1, r2, r3 ; add r4, r5, r6 ; fmac r10, r11, r12, r13 ; stw r14, r15, 0 ; vlds v1, r16, r17 ; vlds v2, r18, r19 }\n",
        &["bad.s:1:3: error: bundle reads 13 registers of file 'r'; it has 12 read ports"],
    );
    let twelve = ["nop"; 12].join(" ; ");
    check(
        &format!("  {{ {twelve} }}\n"),
        &["bad.s:1:3: error: bundle has 12 operations; the machine issues at most 11"],
    );
}

#[test]
fn labels_in_bundles_and_duplicates() {
    check(
        "  { add r1, r2, r3\nlab: add r4, r5, r6 }\n",
        &["bad.s:2:1: error: label 'lab' inside a bundle: labels go between bundles"],
    );
    check("x: nop\nx: nop\n", &["bad.s:2:1: error: label 'x' is already defined at line 1"]);
    check(
        "  .equ X, 1\n  .equ X, 2\nX: nop\n",
        &[
            "bad.s:2:8: error: 'X' is already defined at line 1",
            "bad.s:3:1: error: 'X' is already defined by .equ at line 1",
        ],
    );
}

#[test]
fn unknown_directive() {
    check("  .frobnicate 3\n", &["bad.s:1:3: error: unknown directive '.frobnicate'"]);
    check("  .wrod 3\n", &["bad.s:1:3: error: unknown directive '.wrod'; did you mean '.word'?"]);
}

#[test]
fn bad_guards() {
    check(
        "  (r1) add r1, r2, r3\n  (!p9) add r1, r2, r3\n",
        &[
            "bad.s:1:4: error: guard 'r1' is not a register of the guard file 'p' (p0-p7)",
            "bad.s:2:5: error: register 'p9' out of range: file 'p' has 8 registers (p0-p7)",
        ],
    );
}

#[test]
fn unterminated_bundles() {
    check("  { nop\n  nop\n", &["bad.s:1:3: error: unterminated '{': missing '}'"]);
    check(
        "  { nop\n  { nop }\n",
        &["bad.s:1:3: error: unterminated '{': missing '}'"],
    );
    check("  nop }\n", &["bad.s:1:7: error: expected end of statement, found '}'"]);
    check("  {}\n", &["bad.s:1:3: error: empty bundle"]);
}

#[test]
fn bad_numbers_strings_and_characters() {
    check(
        "  li r1, 12ab\n  .ascii \"abc\n  li r1, 'ab'\n  .ascii \"\\q\"\n  li r1, 0x\n",
        &[
            "bad.s:1:10: error: bad number '12ab'",
            "bad.s:2:10: error: unterminated string",
            "bad.s:3:10: error: unterminated character literal",
            "bad.s:4:11: error: unknown escape sequence '\\q'",
            "bad.s:5:10: error: bad number '0x'",
        ],
    );
    check("  li r1, 99999999999999999999\n", &["bad.s:1:10: error: number '99999999999999999999' does not fit in 64 bits"]);
}

#[test]
fn data_in_bss_and_operations_outside_text() {
    check(
        "  .bss\n  .word 5\n  .zero 4\n  .data\n  add r1, r2, r3\n",
        &[
            "bad.s:2:3: error: '.word' in section '.bss', which holds no data: use .zero/.space there",
            "bad.s:5:3: error: operation 'add' outside .text: section '.data' holds data (switch with .text)",
        ],
    );
}

#[test]
fn data_values() {
    check(
        "  .data\n  .byte 256\n  .half -32769\n  .byte sym\n  .word 1 2\n",
        &[
            "bad.s:2:9: error: value 256 out of range for '.byte' [-128, 255]",
            "bad.s:3:9: error: value -32769 out of range for '.half' [-32768, 65535]",
            "bad.s:4:9: error: 'sym' refers to a symbol's address: only 4-byte '.word' data can be relocated",
            "bad.s:5:11: error: expected end of statement, found '2'",
        ],
    );
}

#[test]
fn layout_expressions() {
    check(
        "  .data\n  .zero later\nlater: .word 1\n  .align 3\n  .p2align 40\n",
        &[
            "bad.s:2:9: error: 'later' is not defined before this point; a constant is needed here",
            "bad.s:4:10: error: alignment 3 is not a power of two in [1, 65536]",
            "bad.s:5:12: error: '.p2align' exponent 40 out of range [0, 16]",
        ],
    );
}

#[test]
fn symbol_expressions() {
    check(
        "  li r1, ext * 2\n  .data\nd: .word 0\n  .text\n  li r1, d - ext\n  li r1, . \n",
        &[
            "bad.s:1:10: error: 'ext*2' combines addresses in a way that is not a constant or symbol+offset",
            "bad.s:5:10: error: 'd-ext' combines addresses in a way that is not a constant or symbol+offset",
            "bad.s:6:10: error: '.' needs a relocation against '.', which has no symbol: use a label",
        ],
    );
}

#[test]
fn branch_targets() {
    check(
        "  br 12\n  br .+3\n  br r1\n",
        &[
            "bad.s:1:6: error: operand 1 of 'br' is pc-relative: write a label or '.+N' (bytes), not the number '12'",
            "bad.s:2:6: error: operand 1 of 'br': branch distance 3 bytes is not a multiple of the 8-byte operation size",
            "bad.s:3:6: error: operand 1 of 'br' must be a branch target, got register 'r1'",
        ],
    );
}

#[test]
fn section_and_symbol_directives() {
    check(
        "  .section .foo, \"q\"\n  .type f, @banana\n  .size\n  .globl\n",
        &[
            "bad.s:1:18: error: unknown section flag 'q' (use a, w, x)",
            "bad.s:2:12: error: symbol type must be @function, @object or @notype",
            "bad.s:3:3: error: '.size' expects NAME, EXPRESSION",
            "bad.s:4:3: error: '.globl' needs a symbol name",
        ],
    );
}

#[test]
fn all_errors_reported_up_to_twenty() {
    let src: String = (0..30).map(|i| format!("  bogus{i} r1\n")).collect();
    let e = errors(&src);
    assert_eq!(e.len(), dsp_mc::MAX_ERRORS);
    assert_eq!(e[0], "bad.s:1:3: error: unknown instruction 'bogus0'");
    assert_eq!(e[19], "bad.s:20:3: error: unknown instruction 'bogus19'");
}

#[test]
fn errors_after_good_code_keep_positions() {
    check(
        "main:\n\taddi r1, r1, -16\n\t{ ldw r5, r1, 0 ; mul r6, r7, r8 }\n\tmul r6, r7\n",
        &["bad.s:4:2: error: 'mul' takes 3 operands (rd, ra, rb), got 2"],
    );
}
