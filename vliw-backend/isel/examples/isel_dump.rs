//! Selects an LLVM IR file and prints the MIR: `cargo run -p dsp-isel --example isel_dump -- x.ll [machine]`.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: isel_dump FILE.ll [MACHINE]");
        std::process::exit(2);
    };
    let machine = isa_tablegen::Machine::load(args.get(2).map(|s| s.as_str()).unwrap_or("ftm")).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_file(std::path::Path::new(path)).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let module = ctx.create_module_from_ir(buf).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    match dsp_isel::select_module(&machine, &module, &dsp_isel::IselOptions::default()) {
        Ok(m) => {
            for f in &m.functions {
                print!("{}", dsp_mir::print::function(&machine, f));
                if let Err(e) = dsp_mir::verify::verify(&machine, f, dsp_mir::verify::Stage::Selected) {
                    println!("VERIFY: {e}");
                }
            }
            for d in &m.data {
                println!("data {} {:?} align {} size {} bytes {:?} relocs {:?}", d.name, d.section, d.align, d.size, d.bytes, d.relocs);
            }
        }
        Err(errs) => {
            for e in errs {
                eprintln!("{e}");
            }
            std::process::exit(1);
        }
    }
}
