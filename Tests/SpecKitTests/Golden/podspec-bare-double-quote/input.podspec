Pod::Spec.new do |s|
  s.name = "Payments"
  s.version = "2.3.0"
  s.dependency "Core"
  s.dependency "Net"  
end
