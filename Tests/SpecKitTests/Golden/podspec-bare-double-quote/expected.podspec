Pod::Spec.new do |s|
  s.name = "Payments"
  s.version = "2.3.0"
  s.dependency "Core", "1.0.1"
  s.dependency "Net", "2.0.0"  
end
