//! Selection tests of computed goto (GCC's labels as values): `indirectbr`
//! becomes an `IndirectJump` over the listed blocks, `blockaddress` the
//! block's label, in code and in data (relocations against the label).

use dsp_mir::{block_label, Block, InstKind, Operand, Terminator};

use crate::tests::{func, machines, select_c};

const SRC: &str = r#"
    int interp(const unsigned char *code, int x) {
        static void *const table[] = { &&inc, &&dbl, &&done };
        goto *table[*code++];
    inc: x++; goto *table[*code++];
    dbl: x *= 2; goto *table[*code++];
    done: return x;
    }
    int states(int n) {
        void *p = &&a;
        int r = 0;
    again:
        goto *p;
    a: r += 1; p = &&b; if (--n) goto again; return r;
    b: r += 10; p = &&a; if (--n) goto again; return r;
    }
"#;

#[test]
fn computed_goto_lowers_to_indirect_jumps_and_labels() {
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "goto", SRC, opt, &[]);
            for name in ["interp", "states"] {
                let f = func(&module, name);
                let jumps: Vec<&Vec<Block>> = f
                    .blocks
                    .iter()
                    .filter_map(|b| match &b.term {
                        Terminator::IndirectJump { targets, .. } => Some(targets),
                        _ => None,
                    })
                    .collect();
                assert!(!jumps.is_empty(), "{} {opt} {name}: no indirect jump", m.name);
                assert!(!f.address_taken.is_empty(), "{} {opt} {name}: no address-taken block", m.name);
                for t in jumps.iter().flat_map(|t| t.iter()) {
                    assert!(f.address_taken.contains(t), "{} {opt} {name}: target bb{} not address-taken", m.name, t.0);
                }
            }
            // `states` materializes label addresses in code.
            let f = func(&module, "states");
            let labels: Vec<String> = f.address_taken.iter().map(|&b| block_label("states", b)).collect();
            let syms = f
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter(|i| match &i.kind {
                    InstKind::Machine { ops, .. } => {
                        ops.iter().any(|o| matches!(o, Operand::Sym { name, .. } if labels.contains(name)))
                    }
                    _ => false,
                })
                .count();
            assert!(syms >= 1, "{} {opt}: no label address in code", m.name);
            // The dispatch table is data with a relocation per entry against interp's labels.
            let table = module.data.iter().find(|d| d.name.contains("table")).expect("the table");
            assert_eq!(table.relocs.len(), 3, "{} {opt}", m.name);
            let f = func(&module, "interp");
            for r in &table.relocs {
                assert!(
                    f.address_taken.iter().any(|&b| block_label("interp", b) == r.symbol),
                    "{} {opt}: relocation against {}",
                    m.name,
                    r.symbol
                );
            }
        }
    }
}
