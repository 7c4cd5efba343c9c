fn main() {
    println!("pnlab");
}
