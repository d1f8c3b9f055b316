//! Tells the tests whether the machine that builds them (the one `cargo test` runs them on)
//! has AVX2, so the AVX lane test reports itself ignored instead of passing without testing.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_avx2_on_build_host)");
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(target_arch = "x86_64")]
    if !std::arch::is_x86_feature_detected!("avx2") {
        println!("cargo::rustc-cfg=no_avx2_on_build_host");
    }
}
