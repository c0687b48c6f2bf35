use toolargs::ToolArgs;

#[derive(ToolArgs)]
union Number {
    int: u32,
    float: f32,
}

fn main() {}
