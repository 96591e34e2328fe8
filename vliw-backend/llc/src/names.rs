//! Names for unnamed globals. LLVM allows globals without a name (`@0`,
//! `@1`: UndefinedBehaviorSanitizer's source locations and type
//! descriptors, for instance) and its own code generator names them
//! `__unnamed_N`; objects need a symbol for each, so this does the same
//! before selection (they are private: local symbols, never clashing with
//! another file's).

use inkwell::module::Module;

/// Gives every unnamed global a fresh `__unnamed_N` name.
pub fn run(module: &Module) {
    let mut n = 0;
    for g in module.get_globals() {
        if !g.get_name().to_bytes().is_empty() {
            continue;
        }
        loop {
            n += 1;
            let name = format!("__unnamed_{n}");
            if module.get_global(&name).is_none() && module.get_function(&name).is_none() {
                g.as_pointer_value().set_name(&name);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    #[test]
    fn unnamed_globals_get_distinct_names() {
        let ctx = Context::create();
        let ir = "@0 = private constant i32 1\n@1 = private global ptr @0\n@__unnamed_1 = global i32 2\n";
        let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
        let m = ctx.create_module_from_ir(buf).unwrap();
        super::run(&m);
        let names: Vec<String> = m.get_globals().map(|g| g.get_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["__unnamed_2", "__unnamed_3", "__unnamed_1"]);
    }
}
