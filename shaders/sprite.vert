#version 330 core
// One instanced quad per sprite. The unit quad is in attribute 0; each
// instance carries its center, size, rotation, color and texture rectangle.
layout(location = 0) in vec2 corner;     // (-0.5,-0.5) .. (0.5,0.5)
layout(location = 1) in vec4 posSize;    // center x, y; size w, h
layout(location = 2) in vec4 rotDepth;   // cos and sin of the rotation, depth, snap
layout(location = 3) in vec4 color;      // premultiplied RGBA
layout(location = 4) in vec4 uvRect;     // u0, v0, u1, v1

uniform mat4 projection;

out vec2 uv;
out vec4 tint;
flat out float snap;

void main() {
    vec2 p = corner * posSize.zw;
    float c = rotDepth.x, s = rotDepth.y;
    p = vec2(c * p.x - s * p.y, s * p.x + c * p.y) + posSize.xy;
    gl_Position = projection * vec4(p, rotDepth.z, 1.0);
    uv = mix(uvRect.xy, uvRect.zw, corner + 0.5);
    tint = color;
    snap = rotDepth.w;
}
